"""The tallies already added up: what the statistics screen opens with, whatever the count of games.

Per game the box keeps a tally (:mod:`firmware.table.person_stats`); adding
10,000 of them on every opening of the Statistics screen costs 200 ms here
and grows with every game night. So the sums are kept too, in one fact
(``tally-sums``): per seat as the tallies name it (its person id and name,
or the box; which person that is now, and under what name, is asked of the
roster when the screen opens, as for the tallies), the contests, and which finished
games are in them (as runs of game numbers: a few numbers for years of
games), with a check of them (how many, the sum of their numbers). Opening
the screen reads that fact and the same check of the finished games now (the
store's ``finished_count`` row, which SQLite's triggers keep: one row read at
any size); only when they differ does it read the list of finished
games and add the games finished since (the one just played, usually), then
keeps the new sums. A game that left the finished ones (marked damaged
since) makes the sums start over from the tallies, once.
"""

from __future__ import annotations

import json

from firmware.store import jsontext

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


def covered(sums: dict) -> int:
    """How many games ``sums`` adds up (from its runs, without building the set)."""
    return sum(last - first + 1 for first, last in sums["games"])


def runs(ids) -> list[list[int]]:
    """Game numbers as runs ``[first, last]``, ascending."""
    out: list[list[int]] = []
    for i in sorted(ids):
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


def _key(seat: dict) -> str:
    """A tally seat's identity as the sums keep it: its person id (if any) and name, or the box."""
    if seat.get("bot"):
        return '["box"]'
    person = seat.get("person")
    return json.dumps([person if type(person) is int else None, str(seat.get("name"))], ensure_ascii=False)


def seats(sums: dict):
    """(a seat as a tally has it: ``name``, ``person``, ``bot``; its numbers) for each seat added up in ``sums``."""
    for key, numbers in sums["people"].items():
        try:
            found = jsontext.load(key)  # a key from the stored sums: a damaged one is skipped, never fatal
        except ValueError:
            continue
        if found == ["box"]:
            yield {"bot": True}, numbers
        elif isinstance(found, list) and len(found) == 2:
            yield {"person": found[0], "name": found[1], "bot": None}, numbers


def add(sums: dict, t: dict) -> None:
    """Add one finished game's tally to ``sums`` (in place), by the seats' identities stored in it."""
    seats_ = t.get("seats") or []
    solo = len(seats_) == 1
    sums["contests"] += not solo
    counted: set = set()  # a person (the box too) plays a game once, however many seats they had
    for seat in seats_:
        key = _key(seat)
        p = sums["people"].setdefault(key, {"games": 0, "wins": 0, "turns": 0, "busts": 0, "solo": {}})
        turns = seat.get("turns", 0)
        if solo:  # a practice: its own figures, never mixed into the games' ones
            if t.get("winner") == 0:
                c = str(t.get("columns", 3))
                count, total, best = p["solo"].get(c, (0, 0, turns))
                p["solo"][c] = [count + 1, total + turns, min(best, turns)]
            continue
        p["turns"] += turns
        p["busts"] += seat.get("busts", 0)
        if key not in counted:
            counted.add(key)
            p["games"] += 1
            p["wins"] += any(t.get("winner") == k and _key(s) == key for k, s in enumerate(seats_))
