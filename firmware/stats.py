"""Statistics over the stored games, for the statistics screen."""

from __future__ import annotations

from .ui import Seat


def wins_per_colour(summaries, colours) -> tuple[tuple[tuple[str, int], ...], int]:
    """Statistics screen rows: wins per colour over finished games of two or more players.

    Solitaire practice is not a win over anybody, so it is left out; a seat the
    box played counts under "Box", not its colour. Every configured colour is
    listed, with 0 where it never won.
    """
    wins = dict.fromkeys(colours, 0)
    games = 0
    for g in summaries:
        if g.status != "finished" or len(g.players) < 2:
            continue
        games += 1
        if g.winner is None:
            continue
        seats = seats_from_meta(g.meta, g.players)
        name = "Box" if seats[g.winner].bot else g.players[g.winner]
        wins[name] = wins.get(name, 0) + 1
    rows = tuple(sorted(wins.items(), key=lambda kv: (-kv[1], list(wins).index(kv[0]))))
    return rows, games


def seats_from_meta(meta: dict | None, players) -> tuple[Seat, ...]:
    seats = []
    raw = (meta or {}).get("seats") or []
    for i, name in enumerate(players):
        bot = person = None
        if i < len(raw) and isinstance(raw[i], dict):
            bot = raw[i].get("bot") or None
            person = raw[i].get("name")
        seats.append(Seat(name, bot, person if isinstance(person, str) and person else None))
    return tuple(seats)
