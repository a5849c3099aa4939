"""The history's pages, read by key, and the lane the history reads take, off the live page's path.

The pager's links are by key: "older" is ``?before=<the page's last game>``,
"newer" ``?after=<its first game>``, each read with the store's ``before=``
(keyset) and a limit of 21, the same few steps down the integer key at any
depth. An old ``?page=N`` link is still answered: the 20 games below the
game at offset ``(N - 1) * 20`` of the games table's own key (``SELECT id
... ORDER BY id DESC LIMIT 1 OFFSET ?``: a walk of the integer key, never
the games themselves), with links by key from there; a page number past
:data:`MAX_PAGE` is a 400.

The history, each game and the statistics replay games: they read through a
:class:`Reader` of their own (its own connection and lock) in at most
:data:`LANE` worker threads of their own, so the live page and
``/now.json`` never wait behind them.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace

import anyio
import anyio.to_thread

from firmware.store import StoreError

PAGE_SIZE = 20
MAX_PAGE = 100_000  # 2 million games: more than a box will ever keep
LANE = 2  # worker threads for the history, a game, the statistics
CHECKED_KEPT = 4096  # closed games whose damage check is remembered
# The replays one view of a page may make for games the sweep has not reached (about 2 ms a game here): the
# rest are shown as still being checked, and the next view, or the sweep, goes on from there. 4 ms keeps such a
# page within 20 ms at 10,000 games right after the start, the sweep and the sums at work beside it (at 10 ms
# it took 19-40 ms there: benchmarks/web.py's "before the sweep has checked it").
CHECK_SECONDS = 0.004


class Lane:
    """Runs blocking reads in threads of their own: at most :data:`LANE` at once, apart from the live page's."""

    def __init__(self, tokens: int = LANE):
        self._tokens = tokens
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, fn, *args):
        if self._limiter is None:  # made on the event loop that uses it
            self._limiter = anyio.CapacityLimiter(self._tokens)
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)


def first_id(store, offset: int) -> int | None:
    """The id of the game at ``offset`` of the history (newest first), else None: an indexed walk of the key."""
    row = store._db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1 OFFSET ?", (offset,)).fetchone()
    return None if row is None else row[0]


def page(store, number: int | None, before: int | None, checked: dict, key=None, sweep=None, *,
         after: int | None = None, clock=time.monotonic) -> tuple[list, bool, bool, int]:
    """(the page's summaries, damage checked; whether an older page follows; whether a newer one does; how many
    of its games are still to be checked, past :data:`CHECK_SECONDS` of replays), by page
    ``number``, or by key: ``before`` (the games older than that one), ``after`` (the 20 just newer than that one:
    the page a "newer" link leads to); ``key`` tells this store file from another (a damaged file the box
    replaced): the remembered checks' key; ``sweep``: the background's checks (:class:`web.sweep.Sweep`), looked
    up before any game is replayed. By key, a page costs the same at any depth: a few steps down the integer key."""
    late: list[int] = []
    deadline = clock() + CHECK_SECONDS

    def checked_all(summaries):
        return [check(store, g, checked, key, sweep, deadline=deadline, clock=clock, late=late) for g in summaries]

    db = store._db
    if after is not None:
        try:
            row = db.execute("SELECT MAX(id) FROM (SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?)",
                             (after, PAGE_SIZE)).fetchone()
        except sqlite3.Error:
            row = None
        if row is None or row[0] is None:
            return [], False, False, 0
        before = row[0] + 1
    if before is None:
        try:
            top = first_id(store, (number - 1) * PAGE_SIZE)
        except sqlite3.Error:  # an older schema or a damaged index: the store's own listing, bounded
            top = None
            if number == 1:
                listed = store.games(limit=PAGE_SIZE + 1)
                return checked_all(listed[:PAGE_SIZE]), len(listed) > PAGE_SIZE, False, len(late)
        if top is None:
            return [], False, False, 0
        before = top + 1
    listed = store.games(limit=PAGE_SIZE + 1, before=before)
    shown = listed[:PAGE_SIZE]
    newer = False
    if shown:
        try:
            newer = db.execute("SELECT 1 FROM games WHERE id > ? LIMIT 1", (shown[0].id,)).fetchone() is not None
        except sqlite3.Error:
            newer = number is not None and number > 1
    return checked_all(shown), len(listed) > PAGE_SIZE, newer, len(late)


def check(store, summary, checked: dict, key, sweep, *, deadline: float, clock, late: list):
    """A listed game with its damage found (history replays every game it lists; so does a page of it).

    A closed game checked by the sweep is looked up; one it has not reached yet is replayed here and its answer
    remembered (``checked``: id -> (status, problem)): its events no longer change. Past ``deadline`` a game
    that would need a replay is returned as listed, its number put in ``late``."""
    if summary.status == "damaged":
        return summary
    hit = checked.get((key, summary.id))
    if hit is None and sweep is not None and summary.status != "open":
        hit = sweep.known(key, summary.id)
    if hit is None and clock() >= deadline:
        late.append(summary.id)
        return summary
    if hit is None:
        try:
            stored = store.game(summary.id)
        except StoreError:
            return summary
        hit = (stored.status, stored.problem)
        if summary.status != "open":
            if len(checked) >= CHECKED_KEPT:
                checked.pop(next(iter(checked)))
            checked[(key, summary.id)] = hit
    if hit[0] == "damaged":
        return replace(summary, status="damaged", problem=hit[1])
    return summary
