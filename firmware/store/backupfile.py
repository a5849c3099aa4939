"""Reading a backup: the games and the roster of a store file, each cell bounded, one game in memory at a time.

A backup is a store file of any version this box reads (``cantstop-box
backup``, or a box's own ``games.sqlite3`` copied off its card). It is read
through a read-only connection, in one snapshot, without the store's reading
half but with its guarded cell reader (:mod:`.jsontext`): every cell's size
is asked of SQLite (``length()``) before the cell is fetched, so a cell of
megabytes is refused without being read into Python, and the games are read
one at a time, in id order. A file whose tables lack
a column this box reads (a schema that is not what its version says) is no
usable game file: nothing is read from it.
"""

from __future__ import annotations

import pathlib
import sqlite3
from collections.abc import Iterator

import engine
from engine import CantStopError, RecordError, Rules

from . import file
from .errors import StoreError, is_corruption, one_line
from .games import STATUSES, is_time
from .incoming import MAX_EVENT_CHARS, MAX_EVENTS, MAX_GAMES, Incoming, Refused, checked, parse_cell, too_many_events
from .jsontext import FACT_CHARS, Unread, fetched, sized

#: The longest roster a backup brings (characters), the store's bound for a fact: one of 64 names takes under
#: 10,000; this holds thousands of people.
MAX_ROSTER_CHARS = FACT_CHARS
#: The most people (and old names, and renames) it may list: 64 on the screen, and one removed every
#: day for eleven years besides.
MAX_ROSTER_PEOPLE = 4096

#: The columns read, by table, with the schema version that added each (docs/store.md).
COLUMNS = {
    "games": {"id": 1, "players": 1, "rules": 1, "meta": 1, "started": 1, "finished": 1, "winner": 1, "status": 1,
              "problem": 1, "clock_jumped": 4},  # not turns: counted again from the events
    "events": {"game_id": 1, "seq": 1, "payload": 1, "time": 1, "elapsed": 4},
    "facts": {"key": 3, "value": 3},
}

_NUMBER = "CASE WHEN typeof({0}) IN ('integer', 'real') THEN {0} END"


def is_store_file(path: pathlib.Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == file._MAGIC
    except OSError:
        return False


class Backup:
    """An open backup file: :meth:`roster` and :meth:`games`. Close it (or use ``with``)."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        self._db, self._version = file.open_reader(path, box_file=False)  # StoreError: not a store
        try:
            self._check_shape()
            self._db.execute("BEGIN")  # one snapshot for the whole reading
            self.count = self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.DatabaseError as err:
            self.close()
            raise StoreError(f"not a usable game file ({one_line(err)})") from None
        except BaseException:
            self.close()
            raise
        if self.count > MAX_GAMES:
            self.close()
            raise StoreError(f"not a usable game file ({self.count:,} games: more than {MAX_GAMES:,}, "
                             "ten games a day for 27 years)")

    def __enter__(self) -> "Backup":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _has(self, table: str, column: str) -> bool:
        return self._version >= COLUMNS[table][column]

    def _check_shape(self) -> None:
        """StoreError when a table lacks a column this box reads (the file says a version it is not)."""
        for table, columns in COLUMNS.items():
            wanted = {c for c in columns if self._has(table, c)}
            if not wanted:
                continue
            have = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            missing = sorted(wanted - have)
            if missing:
                raise StoreError(f"not a usable game file (schema version {self._version} but table {table} has no "
                                 f"column {', '.join(missing)})")

    def roster(self):
        """The backup's roster fact as data (None when it has none); Refused when it is too big or not JSON."""
        if not self._has("facts", "value"):
            return None
        try:
            row = self._db.execute(f"SELECT {sized('value', MAX_ROSTER_CHARS)} FROM facts WHERE key = 'roster'"
                                   ).fetchone()
        except sqlite3.DatabaseError as err:
            raise Refused(f"the roster: unreadable ({one_line(err)})") from None
        if row is None:
            return None
        raw = parse_cell(fetched(row[0]), "the roster", limit=MAX_ROSTER_CHARS)
        for part in ("people", "legacy", "names", "renamed") if isinstance(raw, dict) else ():
            entries = raw.get(part)
            if isinstance(entries, (list, dict)) and len(entries) > MAX_ROSTER_PEOPLE:
                raise Refused(f"the roster's {part} hold {len(entries):,} entries: more than "
                              f"{MAX_ROSTER_PEOPLE:,} (the screen offers 64 names)")
        return raw

    def games(self) -> Iterator[tuple[str, Incoming | Refused]]:
        """Every game, oldest first, as (a label for messages, the game or why it is refused); an open one as
        abandoned (or finished, when its events end in a win)."""
        has_clock = self._has("games", "clock_jumped")
        sql = (f"SELECT id, {sized('players')}, {sized('rules')}, {sized('meta')}, {sized('problem')}, "
               f"{_NUMBER.format('started')}, typeof(started), "
               f"{_NUMBER.format('finished')}, typeof(finished), {_NUMBER.format('winner')}, typeof(winner), "
               f"CASE WHEN length(status) <= 16 THEN status END, "
               f"{_NUMBER.format('clock_jumped') if has_clock else 'NULL'} FROM games ORDER BY id")
        try:
            rows = self._db.execute(sql)
            for row in rows:
                label = f"{self.path.name}, game {row[0] if type(row[0]) is int else repr(row[0])[:20]}"
                try:
                    yield label, self._game(row)
                except Refused as why:
                    yield label, why
        except sqlite3.DatabaseError as err:
            raise StoreError(f"not a usable game file (its games are unreadable: {one_line(err)})") from None

    def _game(self, row) -> Incoming:
        (game_id, players, rules, meta, problem, started, started_t, finished, finished_t, winner, winner_t, status,
         jumped) = row
        players, rules, meta, problem = (fetched(c) for c in (players, rules, meta, problem))
        if isinstance(problem, Unread):
            raise Refused("damaged (its damage note is too big to read)")
        if problem is not None:
            raise Refused(f"damaged ({' '.join(str(problem).split())[:160]})")
        players = parse_cell(players, "players")
        if not isinstance(players, list):
            raise Refused("players is not a list")
        try:
            rules = Rules.from_json(parse_cell(rules, "rules"))
        except (CantStopError, ValueError, TypeError) as err:
            raise Refused(f"rules unreadable ({one_line(err)[:80]})") from None
        meta = parse_cell(meta, "meta") if meta is not None else {}
        if started is None or not is_time(started):
            raise Refused(f"started is not a time ({started_t})")
        if finished_t != "null" and (finished is None or not is_time(finished)):
            raise Refused(f"finished is not a time ({finished_t})")
        if winner_t != "null" and (type(winner) is not int or not 0 <= winner < len(players)):
            raise Refused(f"winner {winner!r:.20} is not a player" if winner is not None
                          else f"winner is not a player ({winner_t})")
        if status not in STATUSES:
            raise Refused(f"status {status!r:.20} is unknown" if status is not None else "status is unknown")
        events, times, elapsed = self._events(game_id)
        return checked(players, rules, meta, events, started=started, finished=finished,
                       status=None if status == "open" else status, winner=winner, times=times,
                       elapsed=elapsed, clock_jumped=bool(jumped))

    def _events(self, game_id):
        """The game's events, their times and play times (None when not kept); Refused when one is bad or big."""
        db = self._db
        try:
            count = db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]
            if count > MAX_EVENTS:
                raise Refused(too_many_events(count))
            elapsed_col = _NUMBER.format("elapsed") if self._has("events", "elapsed") else "NULL"
            rows = db.execute(
                f"SELECT seq, {sized('payload', MAX_EVENT_CHARS)}, {_NUMBER.format('time')}, {elapsed_col} "
                "FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
            events, times, spent = [], [], []
            for i, (seq, payload, when, elapsed) in enumerate(rows, 1):
                if seq != i:
                    raise Refused(f"event {i}: missing (the next stored event is number {seq!r:.20})")
                if when is None or not is_time(when):
                    raise Refused(f"event {i}: its time is not a number")
                events.append(_event(i, payload))
                times.append(when)
                spent.append(elapsed if elapsed is not None and is_time(elapsed) and elapsed >= 0 else None)
        except sqlite3.DatabaseError as err:
            if not is_corruption(err):
                raise
            raise Refused(f"damaged (its events are unreadable: {one_line(err)})") from None
        return tuple(events), tuple(times), tuple(spent) if any(s is not None for s in spent) else None


_EVENTS: dict = {}  # an event's stored text to the event: the same few hundred texts again and again


def _event(i: int, payload):
    event = _EVENTS.get(payload) if isinstance(payload, (str, bytes)) else None
    if event is not None:
        return event
    try:
        event = engine.event_from_json(parse_cell(fetched(payload), f"event {i}", limit=MAX_EVENT_CHARS))
    except RecordError as err:
        raise Refused(f"event {i}: {err}") from None
    if len(_EVENTS) < 4096:
        _EVENTS[payload] = event
    return event
