"""The history's damage checks, done once for every closed game beside the requests: no page replays on its path.

A page of the history marks each damaged game, and finding one means
replaying it (a row that reads but does not replay is damage too): 20
replays made a page's first view cost 20 games' worth. :class:`Sweep` checks
every closed game once, newest first, a few milliseconds at a time in the
background (:mod:`web.background`), and remembers only the numbers it has
covered (one range) and the damaged games' problems, so a page's games are
looked up, at any depth. A closed game's events never change; a game open
when the sweep passed it is left to the page (its check is quick and
remembered there), and games newer than the sweep's start are covered as
they close. A file put in the store's place starts it afresh.
"""

from __future__ import annotations

import logging
import threading
import time

from firmware.store import StoreError

log = logging.getLogger("cantstop.web")

STEP_SECONDS = 0.02  # the work of one step, at most
BATCH = 64  # game numbers read at once
MOST_DAMAGED = 10_000  # damaged games remembered; past this the sweep stops and the pages check as before


class Sweep:
    def __init__(self, reader, *, step_seconds: float = STEP_SECONDS, clock=time.monotonic):
        self.reader = reader
        self.step_seconds = step_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._key = None
        self._low: int | None = None  # every closed game numbered low..high was checked (but those in _skipped)
        self._high: int | None = None
        self._bottom = False  # the sweep has reached the oldest game
        self._damaged: dict[int, str] = {}
        self._skipped: set[int] = set()  # open when the sweep passed them
        self._gave_up = False
        self._began: float | None = None
        self.checked = 0  # games replayed by the sweep

    def known(self, key, game_id: int):
        """(status, problem) for a game the sweep has checked: ("damaged", problem) or ("sound", None); else None."""
        with self._lock:
            if key != self._key or self._low is None or not self._low <= game_id <= self._high \
                    or game_id in self._skipped:
                return None
            problem = self._damaged.get(game_id)
        return ("damaged", problem) if problem is not None else ("sound", None)

    def step(self) -> bool:
        """One bounded step (in a worker thread); True while games are left to check."""
        if self._gave_up:
            return False
        with self.reader.read() as store:
            if store is None:
                return False
            key = self.reader.key()
            if key != self._key:
                with self._lock:
                    self._key, self._low, self._high, self._bottom = key, None, None, False
                    self._damaged, self._skipped = {}, set()
                self._began = self.clock()
            db = store._db
            if self._low is None:
                top = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
                if top is None:
                    return False
                with self._lock:
                    self._low, self._high = top + 1, top
            deadline = self.clock() + self.step_seconds
            if not self._bottom:  # downward, from the newest game at the start
                rows = db.execute("SELECT id, status FROM games WHERE id < ? ORDER BY id DESC LIMIT ?",
                                  (self._low, BATCH)).fetchall()
                for game_id, status in rows:
                    if not self._check(store, game_id, status):
                        return False
                    with self._lock:
                        self._low = game_id
                    if self.clock() >= deadline:
                        return True
                if len(rows) < BATCH:
                    self._bottom = True
                    with self._lock:
                        self._low = min(self._low, 1)
                    if self.checked:
                        log.info("checked every game in the history for damage: %d replayed in %.1f s",
                                 self.checked, self.clock() - self._began)
                return True
            # upward: the games closed since the start, in order (one still open waits)
            rows = db.execute("SELECT id, status FROM games WHERE id > ? ORDER BY id LIMIT ?",
                              (self._high, BATCH)).fetchall()
            for game_id, status in rows:
                if status == "open":
                    return False
                if not self._check(store, game_id, status):
                    return False
                with self._lock:
                    self._high = game_id
                if self.clock() >= deadline:
                    return True
            return False

    def _check(self, store, game_id: int, status) -> bool:
        """Check one game into the sweep's memory; False when the sweep gives up (too many damaged games)."""
        if status == "open":
            with self._lock:
                self._skipped.add(game_id)
            return True
        try:
            stored = store.game(game_id)
            problem = stored.problem if stored.status == "damaged" else None
        except StoreError as err:
            problem = " ".join(str(err).split())[:200]
        self.checked += 1
        if problem is not None:
            if len(self._damaged) >= MOST_DAMAGED:
                with self._lock:
                    self._gave_up, self._key = True, None  # nothing known: the pages check as before
                return False
            with self._lock:
                self._damaged[game_id] = problem or "damaged"
        return True
