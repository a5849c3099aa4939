"""Statistics per person: one small tally per finished game, added up over game nights.

A *tally* is what one finished game says about each seat (turns begun,
busts, the biggest turn in squares climbed, who played it, who won); it is
computed once per game, from its events, as it ends, and kept in the
store as a fact of its own (``tally:<game id>``): a game's end writes one
small value however many games came before it, and the statistics screen
never replays old games. Opening it reads the finished games' numbers and
the tally facts, and replays only games finished without a tally yet (by an
older version, say), once (``benchmarks/people.py`` times it with 2,000
games). Versions before kept every tally in one fact, ``tallies``, written
whole again as each game ended; the statistics split it into per-game facts
the first time they are read.

People are the roster's ids (a seat keeps the id it was played under, so a
rename carries the numbers and a newcomer with an old name starts afresh); a
seat from before ids counts under its name (or the id that name had when ids
began), a seat without a name under its colour, and a seat the box played
under "Box".
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine import Phase, Roll, Stop, apply, new_game

from firmware import words
from firmware.table import tally_sums

TALLY_PREFIX = "tally:"  # + the game's id: one fact per finished game
OLD_TALLIES_KEY = "tallies"  # every tally in one fact, as versions before per-game facts kept them
BOX = words.BOX_PLAYER


def tally(players, seats, rules, events, winner) -> dict:
    """One finished game as plain JSON data: per seat its name, bot, turns, busts and biggest turn."""
    state = new_game(list(players), rules)
    n = len(players)
    turns, busts, best = [0] * n, [0] * n, [0] * n
    for event in events:
        before, state = state, apply(state, event)
        who = before.current
        if isinstance(event, Roll):
            if before.phase is Phase.ROLL:
                turns[who] += 1
            if state.phase is not Phase.MOVE:
                busts[who] += 1
        elif isinstance(event, Stop):
            climbed = sum(step - before.markers[who][c] for c, step in before.runner_steps().items())
            best[who] = max(best[who], climbed)
    out_seats = []
    for i, s in enumerate(seats):
        seat = {"name": s.name or s.colour, "bot": s.bot, "turns": turns[i], "busts": busts[i], "best": best[i]}
        if s.person is not None and s.name is not None:
            seat["person"] = s.person
        out_seats.append(seat)
    return {
        "seats": out_seats,
        "winner": winner,
        "columns": rules.columns_to_win,
    }


@dataclass
class Person:
    """One person's numbers over every finished game."""

    name: str
    games: int = 0  # finished games of two or more players (one per game, whatever the seats)
    wins: int = 0
    turns: int = 0  # turns begun in those games (a practice has its own figures, ``solo``)
    busts: int = 0
    solo: dict[int, list[int]] = field(default_factory=dict)  # columns to win -> [wins, their turns, fewest turns]

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def busts_per_turn(self) -> float | None:
        return self.busts / self.turns if self.turns else None

    def solo_best(self, columns: int) -> int:
        return self.solo[columns][2]

    def solo_average(self, columns: int) -> float:
        count, total, _ = self.solo[columns]
        return total / count


def _by_name(seat: dict) -> tuple[object, str]:
    name = str(seat.get("name"))
    return ("name", name), name


def people(tallies, who=_by_name) -> tuple[tuple[Person, ...], int]:
    """Every person in the tallies (most wins first, then most games, then by name) and the count of contests.

    ``who(seat)`` gives a tally's seat as (the key its numbers add up under,
    the name to show): the roster's :meth:`~firmware.table.roster.Roster.who`
    counts by person id, so two people who had the same name stay apart.
    """
    sums = tally_sums.empty()
    for t in tallies:
        tally_sums.add(sums, t)
    return people_of(sums, who)


def people_of(sums: dict, who=_by_name) -> tuple[tuple[Person, ...], int]:
    """:func:`people` from the tallies already added up (:mod:`firmware.table.tally_sums`)."""
    found: dict[object, Person] = {}
    for seat, numbers in tally_sums.seats(sums):
        key, name = _who(seat, who)
        p = found.setdefault(key, Person(name))
        for field_name in ("games", "wins", "turns", "busts"):
            value = numbers.get(field_name, 0)
            setattr(p, field_name, getattr(p, field_name) + (value if type(value) is int else 0))
        for columns, (count, total, best) in (numbers.get("solo") or {}).items():
            had = p.solo.get(int(columns))
            p.solo[int(columns)] = ([had[0] + count, had[1] + total, min(had[2], best)] if had
                                    else [count, total, best])
    order = sorted(found.values(), key=lambda p: (-p.wins, -p.games, p.name.casefold()))
    return tuple(order), sums["contests"]


def _who(seat: dict, who) -> tuple[object, str]:
    """Whom a tally's seat counts for, as (key, name): the box for a box seat, else ``who(seat)``."""
    return (("box", BOX), BOX) if seat.get("bot") else who(seat)


def _valid(t) -> bool:
    return isinstance(t, dict) and isinstance(t.get("seats"), list) and all(isinstance(s, dict) for s in t["seats"])


#: Tallies computed for games finished without one are kept in batches of at most this many ...
BATCH = 200
#: ... or of what was counted in this many seconds, whichever comes first: a kill loses at most one batch.
BATCH_SECONDS = 0.25


def tallies_by_id(store, seats_of, *, keep=None, progress=None, stopped=lambda: False) -> dict[int, dict] | None:
    """Game id -> tally of every finished game, newest first, computing (and keeping) the missing ones.

    Only the finished games' numbers and the tally facts are read; a game
    without a tally is replayed once (``seats_of(meta, players)`` gives its
    seats). A game that cannot be read is left out (history lists it as
    damaged). An old all-in-one ``tallies`` fact becomes per-game facts.

    The tallies computed are kept as they go, in batches (:data:`BATCH`,
    :data:`BATCH_SECONDS`): ``keep(facts)`` writes one batch (by default
    ``store.put_facts``; the box's statistics worker hands each batch to the
    loop, the one writer), so a kill loses no batch already kept and the next
    opening goes on from there. ``progress(done, total, seconds)`` hears how
    far the replay is after each batch; ``stopped()`` true ends it early (None).
    """
    keep = keep or (lambda facts: _put(store, facts))
    kept = {key.removeprefix(TALLY_PREFIX): t for key, t in store.facts(TALLY_PREFIX).items()}
    old = store.fact(OLD_TALLIES_KEY)
    older = old if isinstance(old, dict) else {}
    ids = store.finished_ids()
    missing = [game_id for game_id in ids if not _valid(kept.get(str(game_id)))]
    batch: dict = {}
    started = last = time.monotonic()
    for done, game_id in enumerate(missing, 1):
        if stopped():
            return None
        t = older.get(str(game_id))
        if not _valid(t):
            t = _replayed(store, game_id, seats_of)
        if t is not None:
            kept[str(game_id)] = t
            batch[f"{TALLY_PREFIX}{game_id}"] = t
        now = time.monotonic()
        if len(batch) >= BATCH or now - last >= BATCH_SECONDS:
            if batch:
                keep(batch)
                batch = {}
            last = now
            if progress is not None:
                progress(done, len(missing), now - started)
    if old is not None:
        batch[OLD_TALLIES_KEY] = None  # every tally it held is a fact of its own now
    if batch:
        keep(batch)
    return {game_id: kept[str(game_id)] for game_id in ids if str(game_id) in kept}


def _put(store, facts: dict) -> None:
    try:
        store.put_facts(facts)
    except Exception:
        pass  # kept pending by the store, or computed again next time: the numbers shown are right either way


#: More games than this to add to the kept sums are counted in batches, with progress (tallies_by_id).
FEW = 64


def load_sums(store, seats_of, *, keep=None, progress=None, stopped=lambda: False) -> dict | None:
    """Every finished game's tally added up, adding only the games finished since the sums were kept.

    Reads the list of finished games and the kept sums; the tallies of the
    games not in the sums yet are read (or computed, see :func:`tallies_by_id`)
    and added, and the new sums kept with them in one transaction. Sums that
    hold a game no longer finished (damaged since) start over. Many games to
    add (a store from before tallies, or before sums) are counted by
    :func:`tallies_by_id`, in batches kept as they go, with ``keep``,
    ``progress`` and ``stopped`` as there (None when stopped); the new sums are
    kept with ``keep`` too (by default ``store.put_facts``).
    """
    sums = store.fact(tally_sums.SUMS_KEY)
    if tally_sums.valid(sums) and sums.get("check") is not None and sums["check"] == _check(store):
        return sums  # the same finished games as when the sums were kept: nothing to add (no list built)
    finished = store.finished_ids()
    included = tally_sums.game_ids(sums) if tally_sums.valid(sums) else None
    if included is None or not included <= set(finished):
        sums, included = tally_sums.empty(), set()
    missing = [i for i in finished if i not in included]
    check = [len(finished), sum(finished)]
    if not missing and sums.get("check") == check:
        return sums
    writes: dict = {}
    if len(missing) > FEW:  # beside the box's loop: batches kept as they go, progress, stopping
        counted = tallies_by_id(store, seats_of, keep=keep, progress=progress, stopped=stopped)
        if counted is None:
            return None
        found = ((game_id, counted[game_id]) for game_id in missing if game_id in counted)
    else:
        found = _tallies(store, seats_of, missing, writes)
    for _, t in found:
        tally_sums.add(sums, t)
    sums["games"] = tally_sums.runs(included | set(missing))  # an unreadable game is not tried again
    sums["check"] = check
    writes[tally_sums.SUMS_KEY] = sums
    (keep or (lambda facts: _put(store, facts)))(writes)
    return sums


class Unwritten:
    """A store for the statistics of a process that writes nothing (the web view, ``players``): what it works out stays here.

    The box keeps the tallies and their sums; a reader that finds games the
    box has not added up yet (or no sums at all) adds them as the box would,
    keeping what it worked out in ``memory`` (this process's, a few hundred
    bytes a game, at most :data:`UNWRITTEN_MOST` tallies) instead of the
    file, so the next reading starts from there: :func:`load_sums` over it
    reads the kept sums and one row when nothing changed, at any size.
    """

    def __init__(self, store, memory: dict):
        self._store = store
        self._memory = memory

    def put_facts(self, values) -> None:
        for key, value in values.items():
            if value is None:
                continue
            if key == tally_sums.SUMS_KEY or (key.startswith(TALLY_PREFIX) and len(self._memory) < UNWRITTEN_MOST):
                self._memory[key] = value

    def fact(self, key: str):
        if key == tally_sums.SUMS_KEY and key in self._memory:
            theirs = self._store.fact(key)  # the box's, when it has added up more games than this process
            mine = self._memory[key]
            if tally_sums.valid(theirs) and tally_sums.covered(theirs) >= tally_sums.covered(mine):
                return theirs
            return mine
        return self._store.fact(key)

    def facts(self, prefix: str) -> dict:
        found = dict(self._store.facts(prefix))
        for key, value in self._memory.items():
            if key.startswith(prefix) and key != tally_sums.SUMS_KEY:
                found.setdefault(key, value)
        return found

    def __getattr__(self, name):
        return getattr(self._store, name)


#: The most tallies an :class:`Unwritten` store keeps in memory (tens of MB would be a hundred thousand games).
UNWRITTEN_MOST = 100_000


def _check(store) -> list[int] | None:
    check = getattr(store, "finished_check", None)
    found = check() if check else None
    return list(found) if found is not None else None


def _tallies(store, seats_of, ids, writes: dict):
    """(game id, tally) of the finished games ``ids``: kept, or from the old all-in-one fact, or replayed once."""
    if len(ids) > 64:  # many: read every tally fact at once
        kept = {key.removeprefix(TALLY_PREFIX): t for key, t in store.facts(TALLY_PREFIX).items()}
        get = lambda game_id: kept.get(str(game_id))  # noqa: E731
    else:
        get = lambda game_id: store.fact(f"{TALLY_PREFIX}{game_id}")  # noqa: E731
    old = store.fact(OLD_TALLIES_KEY)
    older = old if isinstance(old, dict) else {}
    if old is not None:
        writes[OLD_TALLIES_KEY] = None
        # the old fact goes: every game in it keeps a tally of its own first
        for key, t in older.items():
            if _valid(t) and key.isdigit() and not _valid(get(int(key))):
                writes[f"{TALLY_PREFIX}{key}"] = t
    for game_id in ids:
        t = get(game_id)
        if not _valid(t):
            t = older.get(str(game_id))
            if not _valid(t):
                t = _replayed(store, game_id, seats_of)
                if t is None:
                    continue
            writes[f"{TALLY_PREFIX}{game_id}"] = t
        yield game_id, t


def _replayed(store, game_id: int, seats_of) -> dict | None:
    """A finished game's tally from its events; None for a game that cannot be read or is not finished."""
    try:
        stored = store.game(game_id)
        if stored.status != "finished":
            return None
        return tally(stored.players, seats_of(stored.meta, stored.players), stored.rules, stored.events,
                     stored.winner)
    except Exception:
        return None


def keep_tally(store, game_id: int, t: dict) -> None:
    """Keep one finished game's tally (the daemon, as a game ends): one small fact, whatever came before."""
    store.put_fact(f"{TALLY_PREFIX}{game_id}", t)
