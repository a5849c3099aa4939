"""Reading the store: the open game, one game, the list of games, the facts.

Reads show pending writes as if they were saved, and a damaged row is listed
as damaged, never fatal. :class:`Reads` is the reading half of
:class:`~firmware.store.store.Store` (which holds the connection, the
pending queue and the open games' cursors).
"""

from __future__ import annotations

import logging
import sqlite3

from engine import Record

from . import jsontext, queries
from .errors import StoreGameError, is_corruption, one_line
from .games import Cursor, GameSummary, StoredGame, replay_rows, summary

log = logging.getLogger("cantstop.store")


class Reads:
    """The queries of :class:`~firmware.store.store.Store`."""

    def open_game(self) -> StoredGame | None:
        """The newest game not finished nor abandoned, or None.

        A damaged one comes back with status ``"damaged"``, its ``problem``
        and the events that replay; the daemon shows the problem and starts a
        new game (which abandons it; it stays in history and can be exported).
        """
        rows = self._rows(status="open", limit=1)
        return self._load(rows[0])[0] if rows else None

    def game(self, game_id: int) -> StoredGame:
        """One game by id; raises :class:`StoreGameError` naming an unknown id."""
        return self._load(self._row(game_id))[0]

    def record(self, game_id: int) -> Record:
        """The game record of CONTRACT.md (a damaged game gives the prefix that replays)."""
        return self.game(game_id).record()

    def games(self, limit: int | None = None, *, check: bool = False, before: int | None = None,
              status: str | None = None) -> list[GameSummary]:
        """Games newest first: players, turns, winner, duration, status.

        Open games are replayed; a closed game uses the turns kept when it
        closed, so the list stays quick with a long history. ``check=True``
        replays every game listed, so damage in them shows as status
        ``"damaged"`` (the ``history`` command does this, a page at a time).
        ``before`` lists only games older than that game number (the next
        page), ``status`` only the games stored with that status (pending
        writes shown). A damaged row is listed as damaged, never fatal.
        """
        rows = self._rows(limit=limit, before=before, status=status)
        try:
            quick = {} if check else queries.quick_summaries(self._connection(), rows, self._queue.touched_games())
        except sqlite3.DatabaseError as err:
            if not is_corruption(err):
                raise
            quick = {}  # a damaged page among the events: each game read on its own finds which

        out = []
        for row in rows:
            if row["id"] in quick:
                out.append(quick[row["id"]])
            else:
                out.append(summary(*self._load(row)))
        return out

    def count_games(self) -> int:
        """How many games are stored, whatever their status."""
        return queries.count_games(self._connection())

    def finished_ids(self) -> list[int]:
        """Ids of finished, undamaged games, newest first: a quick check for the statistics (no row is parsed)."""
        ids = queries.finished_ids(self._connection(), self._version)
        for game_id in self._queue.touched_games(closing=True):
            row = self._row(game_id)
            if row["status"] == "finished" and not row["problem"]:
                ids.add(game_id)
            else:
                ids.discard(game_id)
        return sorted(ids, reverse=True)

    def finished_check(self) -> tuple[int, int] | None:
        """(count, sum of ids) of :meth:`finished_ids`, without building the list; None while writes are pending."""
        if self._queue.touched_games(closing=True):
            return None
        return queries.finished_check(self._connection(), self._version)

    def fact(self, key: str):
        """The UI fact kept under ``key`` (as put), or None."""
        found, text = self._queue.fact(key)
        if not found and self._version >= 3:
            row = self._connection().execute(f"SELECT {_VALUE} FROM facts WHERE key = ?", (key,)).fetchone()
            text = jsontext.fetched(row[0]) if row else None
        return _parsed(key, text)

    def facts(self, prefix: str) -> dict:
        """Every fact whose key starts with ``prefix`` (a non-empty string): key -> value, in key order.

        For facts kept one per thing (``"tally:12"``), so that adding one
        writes only that one. A damaged value is left out (logged).
        """
        if not prefix:
            raise StoreGameError("a facts prefix is a non-empty string")
        texts: dict[str, str | None] = {}
        if self._version >= 3:
            # the keys from prefix up to (not including) prefix with its last character's successor
            end = prefix[:-1] + chr(ord(prefix[-1]) + 1)
            texts.update((key, jsontext.fetched(value)) for key, value in
                         self._connection().execute(f"SELECT key, {_VALUE} FROM facts WHERE key >= ? AND key < ?",
                                                    (prefix, end)))
        texts.update(self._queue.facts(prefix))
        keys = sorted(k for k, text in texts.items() if text is not None)
        try:  # all in one parse (a fact's text is one JSON value, as _dump wrote it), one level deeper
            if not all(isinstance(texts[k], str) for k in keys):
                raise ValueError("a value is not text")
            values = jsontext.load("[" + ",".join(texts[k] for k in keys) + "]", limit=None,
                                   depth=jsontext.MAX_DEPTH + 1)
            if len(values) != len(keys):
                raise ValueError("a value is not one JSON value")
        except ValueError:  # some value is damaged: each on its own, the damaged ones left out
            values = [_parsed(k, texts[k]) for k in keys]
        return {k: v for k, v in zip(keys, values) if v is not None}

    def _rows(self, *, status: str | None = None, game_id: int | None = None,
              limit: int | None = None, before: int | None = None) -> list[dict]:
        """Game rows as dicts, newest first, checked (damage recorded), pending writes shown."""
        rows = queries.game_rows(self._connection(), self._queue, self._version,
                                 status=status, game_id=game_id, limit=limit, before=before)
        for row in rows:
            if row.get("damage") and not row["problem"]:
                row["problem"] = row["damage"]
                self._mark_damaged(row["id"], row["damage"])
        return rows

    def _row(self, game_id) -> dict:
        if type(game_id) is not int:
            raise StoreGameError(f"a game id is a whole number, not {game_id!r}")
        rows = self._rows(game_id=game_id)
        if not rows:
            raise StoreGameError(f"there is no game {game_id}")
        return rows[0]

    def _load(self, row: dict) -> tuple[StoredGame, Cursor | None]:
        """Parse and replay one game; a problem marks it damaged (rows kept, never dropped)."""
        try:
            rows = queries.event_rows(self._connection(), self._queue, row["id"])
        except sqlite3.DatabaseError as err:
            if not is_corruption(err):
                raise
            # a damaged page among the events (a big file is not checked whole at open): this game only
            rows, row = [], dict(row, damage=None, problem=row["problem"] or
                                 f"game {row['id']}: its events are unreadable ({one_line(err)})")
            self._mark_damaged(row["id"], row["problem"])
        game, cursor, found = replay_rows(row, rows)
        if found and not row["problem"]:
            self._mark_damaged(game.id, found)
        if game.status == "open":
            old = self._cursors.get(game.id)
            if old is not None and cursor is not None and old.seq == cursor.seq:
                cursor.elapsed, cursor.wall, cursor.mono = old.elapsed, old.wall, old.mono  # this process's clocks
            self._cursors[game.id] = cursor
        else:
            self._cursors.pop(game.id, None)
        return game, cursor


#: A fact's value, fetched only when it is not too big to be one, and its size.
_VALUE = jsontext.sized("value", jsontext.FACT_CHARS)


def _parsed(key: str, text):
    """A fact's JSON text as data; None for none, or for a damaged value (logged)."""
    if text is None:
        return None
    try:
        return jsontext.load(text, limit=jsontext.FACT_CHARS)
    except jsontext.CellError as err:
        log.warning("fact %.40r is damaged (%s): ignored", key, err)
        return None
