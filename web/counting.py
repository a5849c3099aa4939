"""The statistics' sums for the web view, added up beside the requests, never on their path.

``/people`` shows every finished game's tally added up. The box keeps those
sums (``tally-sums``, :mod:`firmware.table.tally_sums`) when its statistics
screen opens, and a tally per game as it ends; a store may have no sums at
all (from before them, or a history brought in by ``import``), or sums some
games behind. The page never adds games up itself: it reads the box's sums
when they hold every finished game now (one fact and one row), else the sums
this process keeps (:class:`Counter`), which a background job brings up to
date in small steps (:data:`STEP_SECONDS` of work each, in the history's
lane, off the live page's path), from the box's sums or its own, adding only
the games missing: a tally kept by the box is read (one row), a game without
one is replayed once. Until they hold every game the page says how many are
added up so far. The process keeps the sums only (a few hundred bytes a
person, the games as runs of numbers), never the games' tallies.
"""

from __future__ import annotations

import copy
import threading
from array import array
import time
from dataclasses import dataclass

from firmware.table import person_stats as people, tally_sums

STEP_SECONDS = 0.02  # the work of one step, at most (then the lane is free again)


@dataclass(frozen=True)
class Sums:
    """What the page shows: the sums, how many finished games they hold, how many are finished."""

    sums: dict
    counted: int
    total: int

    @property
    def complete(self) -> bool:
        return self.counted >= self.total


class Counter:
    """This process's sums of the finished games' tallies, kept up to date by :meth:`step`.

    ``reader`` is a :class:`web.reader.Reader` of the job's own (its connection and lock: a step never makes a
    page wait); ``seats_of`` gives a game's seats (as the box's statistics read them)."""

    def __init__(self, reader, seats_of, *, step_seconds: float = STEP_SECONDS, clock=time.monotonic):
        self.reader = reader
        self.seats_of = seats_of
        self.step_seconds = step_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._shown: Sums | None = None  # the latest sums published for the page (a copy of its own)
        self._key = None  # the store file the sums are of
        self._check = None  # the finished games' check the finished sums hold
        self._work: dict | None = None  # sums being added to
        self._from: list = []  # the runs of games the sums of this pass began with
        self._added = array("q")  # games added in this pass (8 bytes each: 10,000 games are 80 KB)
        self._todo: array | None = None  # games of this pass still to add, oldest last
        self._target = None  # the check this pass brings the sums to
        self._older: dict | None = None  # the old all-in-one "tallies" fact, read once per pass

    def shown(self) -> Sums | None:
        """The sums the page shows now, if this process has any (never a store read)."""
        with self._lock:
            return self._shown

    def _publish(self, sums: dict, counted: int, total: int) -> None:
        with self._lock:
            self._shown = Sums(copy.deepcopy(sums), counted, total)

    def step(self) -> bool:
        """One bounded step of adding up (in a worker thread); True while games are left to add."""
        with self.reader.read() as store:
            if store is None:
                return False
            key = self.reader.key()
            if key != self._key:  # another file (a damaged one the box replaced): start afresh
                self._key, self._check, self._work, self._todo = key, None, None, None
                with self._lock:
                    self._shown = None
            check = store.finished_check()
            check = list(check) if check is not None else None
            if self._todo is None:
                if check is not None and check == self._check:
                    return False  # up to date
                self._begin(store, check)
            deadline = self.clock() + self.step_seconds
            while self._todo:  # one game at least, then as many as fit in the step
                game_id = self._todo.pop()
                t = store.fact(f"{people.TALLY_PREFIX}{game_id}")
                if not people._valid(t):
                    t = (self._older or {}).get(str(game_id))
                if not people._valid(t):
                    t = people._replayed(store, game_id, self.seats_of)
                if t is not None:
                    tally_sums.add(self._work, t)
                self._added.append(game_id)  # a game that cannot be read is not tried again
                if self.clock() >= deadline:
                    break
            counted = tally_sums.covered({"games": self._from}) + len(self._added)
            if self._todo:
                self._publish(self._work, counted, max(self._target[0], counted + len(self._todo)))
                return True
            self._work["games"] = tally_sums.runs(tally_sums.game_ids({"games": self._from}) | set(self._added))
            self._work["check"] = self._target
            self._check = self._target
            self._publish(self._work, counted, counted)
            self._todo, self._from, self._added, self._older = None, [], array("q"), None
            return False

    def _begin(self, store, check) -> None:
        """A pass: from the sums that hold the most of the games finished now (the box's or ours), the rest to add."""
        finished = store.finished_ids()
        now = set(finished)
        theirs = store.fact(tally_sums.SUMS_KEY)
        start, included = tally_sums.empty(), set()
        for sums in (theirs, self._work if self._check is not None else None):
            if tally_sums.valid(sums):
                ids = tally_sums.game_ids(sums)
                if ids <= now and len(ids) >= len(included):  # a game left the finished ones: not these sums
                    start, included = sums, ids
        self._work = copy.deepcopy(start)
        self._work.pop("check", None)
        self._from = [list(r) for r in start["games"]]
        self._added = array("q")
        self._todo = array("q", (i for i in finished if i not in included))  # newest first: popped oldest first
        self._target = check if check is not None else [len(finished), sum(finished)]
        old = store.fact(people.OLD_TALLIES_KEY)
        self._older = old if isinstance(old, dict) and self._todo else None


def page_sums(store, counter: Counter) -> Sums | None:
    """The sums ``/people`` shows (on the request's path: one fact and one row read, whatever the history)."""
    check = store.finished_check()
    theirs = store.fact(tally_sums.SUMS_KEY)
    if check is not None and tally_sums.valid(theirs) and theirs.get("check") == list(check):
        return Sums(theirs, check[0], check[0])  # the box's, holding every finished game
    mine = counter.shown()
    if mine is not None and check is not None and mine.sums.get("check") == list(check):
        return mine
    if mine is not None:  # being brought up to date: as far as counted, saying so
        return Sums(mine.sums, mine.counted, max(mine.total, check[0] if check else 0, mine.counted + 1))
    if tally_sums.valid(theirs) and check is not None:  # the box's, some games behind
        return Sums(theirs, min(tally_sums.covered(theirs), check[0]), max(check[0], 1))
    if check is not None and check[0]:  # nothing added up yet: none so far, of how many
        return Sums(tally_sums.empty(), 0, check[0])
    return None
