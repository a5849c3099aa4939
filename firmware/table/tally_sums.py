"""The tallies already added up: what the statistics screen opens with, whatever the count of games.

Per game the box keeps a tally (:mod:`firmware.table.person_stats`); adding
10,000 of them on every opening of the Statistics screen costs 200 ms here
and grows with every game night. So the sums are kept too, in one fact
(``tally-sums``): per name as stored in the games (renames are applied when
the screen opens, as for the tallies), the contests, and which finished
games are in them (as runs of game numbers: a few numbers for years of
games), with a check of them (how many, the sum of their numbers). Opening
the screen reads that fact and the same check of the finished games now (one
pass inside SQLite); only when they differ does it read the list of finished
games and add the games finished since (the one just played, usually), then
keeps the new sums. A game that left the finished ones (marked damaged
since) makes the sums start over from the tallies, once.
"""

from __future__ import annotations

SUMS_KEY = "tally-sums"
_FIELDS = ("games", "wins", "turns", "busts")


def empty() -> dict:
    return {"people": {}, "contests": 0, "games": []}


def valid(sums) -> bool:
    return (isinstance(sums, dict) and isinstance(sums.get("people"), dict) and type(sums.get("contests")) is int
            and isinstance(sums.get("games"), list)
            and all(isinstance(r, list) and len(r) == 2 and all(type(x) is int for x in r) for r in sums["games"])
            and all(isinstance(p, dict) for p in sums["people"].values()))


def game_ids(sums: dict) -> set[int]:
    """The games added up in ``sums``."""
    out: set[int] = set()
    for first, last in sums["games"]:
        out.update(range(first, last + 1))
    return out


def runs(ids) -> list[list[int]]:
    """Game numbers as runs ``[first, last]``, ascending."""
    out: list[list[int]] = []
    for i in sorted(ids):
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


def add(sums: dict, t: dict, box_name: str) -> None:
    """Add one finished game's tally to ``sums`` (in place), by the names stored in it."""
    seats = t.get("seats") or []
    solo = len(seats) == 1
    sums["contests"] += not solo
    for i, seat in enumerate(seats):
        name = box_name if seat.get("bot") else str(seat.get("name"))
        p = sums["people"].setdefault(name, {"games": 0, "wins": 0, "turns": 0, "busts": 0, "solo": {}})
        turns = seat.get("turns", 0)
        p["turns"] += turns
        p["busts"] += seat.get("busts", 0)
        if solo:
            if t.get("winner") == 0:
                c = str(t.get("columns", 3))
                count, total, best = p["solo"].get(c, (0, 0, turns))
                p["solo"][c] = [count + 1, total + turns, min(best, turns)]
            continue
        p["games"] += 1
        p["wins"] += t.get("winner") == i
