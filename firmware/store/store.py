"""The event log: :class:`Store`, what the daemon and the commands call (its reads are in :mod:`.reads`).

Every game is a row of ``games`` and every event a row of ``events``
(``seq`` from 1). :meth:`Store.append` checks an event against the game with
the engine and returns once it is committed and synced. A write that fails is
kept by the pending queue (:mod:`.pending`) and reads show it as if saved.
"""

from __future__ import annotations

import json
import logging
import pathlib
import sqlite3
import time
from collections.abc import Sequence

import engine
from engine import Event, IllegalEventError, Rules

from . import file, jsontext
from .errors import StoreError, StoreGameError, StoreWriteError
from .games import Cursor, StoredGame, turns_played
from .jsontext import CELL_CHARS, dump as _dump
from .pending import (DeleteEvent, MarkAbandoned, MarkFinished, MarkReopened, Queue, SaveEvent, SaveFact, SaveGame,
                      Write)
from .reads import Reads
from .schema import SCHEMA_VERSION

log = logging.getLogger("cantstop.store")


class Store(Reads):
    """The games on disk. Open with :meth:`Store.open`; use from one thread at a time."""

    notice: str | None
    """A one-line message for the screen when the store had to start clean, else None."""
    cannot_save: str | None
    """Why the store cannot save right now (``cannot save: ...``), None once a write works."""

    def __init__(self, db: sqlite3.Connection, path: pathlib.Path, clock, *, notice: str | None = None,
                 readonly: bool = False, version: int = SCHEMA_VERSION, lock: file.Lock | None = None,
                 cannot_save: str | None = None, monotonic=None, busy_ms: int | None = None,
                 refuse: str | None = None):
        self._db = db
        self.path = path
        self._clock = clock
        # the clock that cannot jump, for play time; a test's own clock stands for both
        self._monotonic = monotonic or (time.monotonic if clock is time.time else clock)
        self.notice = notice
        self.readonly = readonly
        self.cannot_save = cannot_save
        self._writable = not readonly and cannot_save is None  # a read-write connection to the file
        self._version = version  # a store that reads only may read an older file
        self._lock = lock
        self._queue = Queue()
        self._cursors: dict[int, Cursor] = {}  # open games: what the next append or undo needs
        self._busy_ms = busy_ms  # how long a write waits for another process's lock (None: SQLite's 5 s)
        self.refuse = refuse  # why this store never writes (a file from a newer box), else None
        self._wait_at_most(db)

    # -- opening and closing -------------------------------------------------

    @classmethod
    def open(cls, state_dir: pathlib.Path | str, *, clock=time.time, readonly: bool = False,
             monotonic=None, busy_ms: int | None = None) -> "Store":
        """Open (creating if needed) the store in ``state_dir``.

        A database that will not open, fails its integrity check or has an
        unknown schema is moved aside with a timestamp and the store starts
        clean, with :attr:`notice` set. A file from a newer version of the
        box is opened read-only instead (one line in the log; :attr:`refuse`
        and :attr:`cannot_save` say why nothing is saved): going back to an
        older box hides nothing and moves nothing. Something at the file's
        path that is not a file (a FIFO, a device, a directory) raises
        :class:`StorePathError` at once. A second box on the same directory
        raises :class:`StoreLockedError`. When the file cannot be written (a
        read-only card, a full disk) the store opens anyway, reading what it
        can, with :attr:`cannot_save` set; each write tries again.

        ``readonly=True`` (for the command line, beside a running box) takes
        no lock and creates and moves nothing: a missing store raises
        :class:`StoreMissingError`, a bad one :class:`StoreError`, and every
        write fails.

        ``busy_ms`` bounds how long each later statement waits while another
        process holds the file (a backup, an ``sqlite3`` shell): the box's
        loop passes tens of milliseconds, so a locked file is a failed write
        that the pending queue keeps (see :meth:`flush`), never a frozen loop.
        """
        state_dir = pathlib.Path(state_dir)
        path = state_dir / file.DB_NAME
        if readonly:
            db, version = file.open_reader(path)
            store = cls(db, path, clock, readonly=True, version=version, monotonic=monotonic, busy_ms=busy_ms)
        else:
            lock = file.Lock(state_dir / file.LOCK_NAME)
            try:
                opened = file.open_writer(state_dir, lock, clock)
            except BaseException:
                lock.release()
                raise
            store = cls(opened.db, path, clock, notice=opened.notice, version=opened.version, lock=lock,
                        cannot_save=opened.cannot_save, monotonic=monotonic, busy_ms=busy_ms, refuse=opened.refuse)
        store._finish_won_games()
        return store

    def close(self) -> None:
        """Try once more to save pending operations, then close (pending ones left are logged)."""
        if self._db is None:
            return
        if len(self._queue) and not self.readonly:
            try:
                self._save([])
            except StoreWriteError as err:
                log.error("closing with %d unsaved operations: %s", len(self._queue), err)
        try:
            self._db.close()
        finally:
            self._db = None
            if self._lock is not None:
                self._lock.release()

    def cut_power(self) -> None:
        """Act out a power cut here (tests, benchmarks): the store stops as the box's process would.

        The lock goes, as the kernel drops it with the process, so another store may open the
        directory at once. Writes still pending are lost with the memory that held them. Nothing is
        closed cleanly: no last save (as :meth:`close` tries) and no checkpoint of the write-ahead
        log, which stays on disk for the next open to read, as after a real cut (the connection is
        left open, unused, while this object lives). Afterwards every read and write raises
        :class:`StoreError` (the store is closed). A store closed or cut already: nothing happens.
        """
        if self._db is None:
            return
        self._cut_off, self._db = self._db, None  # unused from here; never closed by this store
        self._queue, self._cursors = Queue(), {}
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def data_version(self) -> int | None:
        """SQLite's ``PRAGMA data_version``: it moves when another process commits (a roster change).

        Cheap (no table is read, no lock waited on); None when it cannot be read.
        """
        if self._db is None:
            return None
        try:
            return self._db.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            return None

    def _wait_at_most(self, db: sqlite3.Connection) -> None:
        if self._busy_ms is not None:
            try:
                db.execute(f"PRAGMA busy_timeout={max(0, int(self._busy_ms))}")
            except sqlite3.Error as err:  # pragma: no cover - a pragma on an open connection
                log.warning("cannot set busy_timeout: %s", err)

    def flush(self) -> None:
        """Save the pending operations now (the box retries this on a deadline while any wait).

        Raises :class:`StoreWriteError` while they still cannot be saved; they stay pending.
        """
        if len(self._queue):
            self._save([])

    @property
    def pending(self) -> int:
        """How many operations wait to be saved (0 when everything is on disk)."""
        return len(self._queue)

    def _finish_won_games(self) -> None:
        """Finish every open game whose events end in a win (a power cut from before the one-transaction win)."""
        found = self._connection().execute(  # a payload too big to be an event is left to the reads to report
            "SELECT g.id, e.payload FROM games g JOIN events e ON e.game_id = g.id "
            "WHERE g.status = 'open' AND g.problem IS NULL "
            f"AND e.seq = (SELECT MAX(seq) FROM events WHERE game_id = g.id) AND length(e.payload) <= {CELL_CHARS}"
            ).fetchall()
        writes: list[Write] = []
        for game_id, payload in found:
            if not _is_stop(payload):
                continue  # only a stop wins: no replay for the others
            game = self.game(game_id)
            cursor = self._cursors.get(game_id)
            if game.status == "open" and cursor is not None and cursor.state.is_over:
                log.warning("game %d ended in a win but was left open: marked finished", game_id)
                del self._cursors[game_id]
                writes.append(MarkFinished(game_id, game.times[-1], cursor.state.winner, turns_played(cursor.state)))
        if not writes:
            return
        if self.readonly:
            self._queue.keep(writes)  # shown in reads, never written by a reader
            return
        try:
            self._save(writes)
        except StoreWriteError:
            pass  # kept pending, saved by the next write that works

    # -- writing -------------------------------------------------------------

    def new_game(self, players: Sequence[str], rules: Rules | None = None, *, meta: dict | None = None) -> StoredGame:
        """Start a game (an open game left behind is marked abandoned and kept in history).

        Raises :class:`StoreWriteError` if it cannot be saved: the game is
        then kept as pending, like an event (reads, :meth:`open_game` first,
        already show it), and saved by the next write that works, with the
        events appended to it meanwhile.
        """
        rules = Rules() if rules is None else rules
        state = engine.new_game(players, rules)  # checks players and rules
        meta = {} if meta is None else meta
        if not isinstance(meta, dict):
            raise StoreGameError("meta must be a JSON object (a dict)")
        try:
            meta_text = _dump(meta)
        except (TypeError, ValueError) as err:
            raise StoreGameError(f"meta must be JSON data: {err}") from None
        now = self._clock()
        left = [r["id"] for r in self._rows(status="open")]
        game_id = self._next_game_id()
        writes: list[Write] = [MarkAbandoned(old, now, self._turns_known(old)) for old in left]
        writes.append(SaveGame(game_id, _dump(list(state.players)), _dump(rules.to_json()), meta_text, now))
        for old in left:
            self._cursors.pop(old, None)
            log.info("game %d left open: marked abandoned", old)
        self._cursors[game_id] = Cursor(0, state, wall=now, mono=self._monotonic())
        try:
            self._save(writes)
        except StoreWriteError:
            raise  # kept pending: the game goes on and is saved later
        except BaseException:
            self._cursors.pop(game_id, None)
            raise
        return StoredGame(game_id, state.players, rules, json.loads(meta_text), (), now, None, None, "open")

    def _next_game_id(self) -> int:
        """The id the next game gets: after every stored (and AUTOINCREMENT-used) id and every pending one.

        Chosen here, not by the INSERT, so that a game kept pending has its id
        at once; one writer at a time (the lock) keeps it unique.
        """
        db = self._connection()
        top = db.execute("SELECT MAX(id) FROM games").fetchone()[0] or 0
        try:
            row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
        except sqlite3.Error:
            row = None
        used = row[0] if row and isinstance(row[0], int) else 0
        return max(top, used, self._queue.newest_game()) + 1

    def append(self, game_id: int, event: Event) -> None:
        """Save one event of an open game; returns only once it is committed and synced.

        The event must be legal after the game's events (an illegal one raises
        :class:`engine.IllegalEventError`, numbered, and nothing is saved). The
        event that wins the game finishes it in the same transaction.
        Raises :class:`StoreWriteError` when saving fails: the event is then
        kept as pending and saved first by the next write that works.
        """
        cursor = self._cursor(game_id)
        seq = cursor.seq + 1
        try:
            state = engine.apply(cursor.state, event)
        except IllegalEventError as err:
            raise err.at(seq) from None
        cursor.push(event, state)
        now = self._clock()
        elapsed, jumped = cursor.clock_step(now, self._monotonic())
        if jumped:
            log.warning("the wall clock jumped during game %d: its dates are shown as unknown", game_id)
        writes: list[Write] = [SaveEvent(game_id, seq, _dump(event.to_json()), now, elapsed, jumped)]
        if state.is_over:  # the win and the finish land together, or neither does
            writes.append(MarkFinished(game_id, now, state.winner, turns_played(state)))
            del self._cursors[game_id]
        self._save(writes)

    def pop_last(self, game_id: int) -> Event:
        """Undo: remove the last event of an open game if it is a move or a stop.

        Raises :class:`StoreGameError` if the game has no events or the last
        one is a roll (the dice once drawn stay drawn). An event still pending
        is dropped without writing; a saved one is deleted
        (:class:`StoreWriteError` if that fails: the undo holds in the store
        and is saved by the next write that works).
        """
        cursor = self._cursor(game_id)
        seq = cursor.seq
        event = cursor.pop(game_id)
        if self._queue.drop_event(game_id, seq) is None:
            self._save([DeleteEvent(game_id, seq)])
        return event

    def finish(self, game_id: int, winner: int | None) -> None:
        """Mark an open game finished now with its winner (an index into players, or None).

        A game its winning event already finished (same winner) is left as it is.
        """
        row = self._row(game_id)
        if row["status"] == "finished" and not row["problem"] and row["winner"] == winner is not None:
            return
        if row["status"] != "open" or row["problem"]:
            state = "damaged" if row["problem"] else row["status"]
            raise StoreGameError(f"game {game_id} is {state} and cannot be finished")
        cursor = self._cursor(game_id)
        count = len(cursor.state.players)
        if winner is not None and not (type(winner) is int and 0 <= winner < count):
            raise StoreGameError(f"winner must be a player number 0 to {count - 1}, not {winner!r}")
        del self._cursors[game_id]
        self._save([MarkFinished(game_id, self._clock(), winner, turns_played(cursor.state))])

    def abandon(self, game_id: int) -> None:
        """Mark an open game abandoned (it stays in history)."""
        self._row(game_id)
        turns = self._turns_known(game_id)
        self._cursors.pop(game_id, None)
        self._save([MarkAbandoned(game_id, self._clock(), turns)])

    def reopen(self, game_id: int) -> StoredGame:
        """Continue an abandoned game: it becomes the open game; the one open now is abandoned in its place."""
        row = self._row(game_id)
        if row["problem"] or row["status"] != "abandoned":
            state = "damaged" if row["problem"] else row["status"]
            raise StoreGameError(f"game {game_id} is {state} and cannot be continued")
        now = self._clock()
        left = [r["id"] for r in self._rows(status="open")]
        writes: list[Write] = [MarkAbandoned(old, now, self._turns_known(old)) for old in left]
        for old in left:
            self._cursors.pop(old, None)
        self._save(writes + [MarkReopened(game_id)])
        return self.game(game_id)

    def put_fact(self, key: str, value) -> None:
        """Keep a small UI fact (JSON data) under ``key``; ``None`` removes it.

        Saved like an event: :class:`StoreWriteError` when saving fails, the
        fact then pending (and :meth:`fact` already gives it).
        """
        self.put_facts({key: value})

    def put_facts(self, values: dict) -> None:
        """Keep (or, for ``None``, remove) several facts in one transaction: all of them are saved, or none."""
        writes = []
        for key, value in values.items():
            if not isinstance(key, str) or not key:
                raise StoreGameError(f"a fact's key is a non-empty string, not {key!r}")
            try:
                text = None if value is None else _dump(value)
            except (TypeError, ValueError) as err:
                raise StoreGameError(f"fact {key!r} must be JSON data: {err}") from None
            writes.append(SaveFact(key, text, self._clock()))
        if writes:
            self._save(writes)

    def _turns_known(self, game_id: int) -> int | None:
        """Turns played in a game whose cursor is in memory, else None (history replays it when asked)."""
        cursor = self._cursors.get(game_id)
        return turns_played(cursor.state) if cursor else None

    def _save(self, writes: list[Write], then=None, *, keep: bool = True):
        """Save pending writes, ``writes`` and ``then(db)`` in one transaction (see :meth:`pending.Queue.save`)."""
        try:
            db = self._connection_for_writing()
        except StoreWriteError as err:
            self.cannot_save = str(err)
            raise self._queue.failed(err, writes if keep else []) from None
        try:
            result = self._queue.save(db, writes, then, keep=keep)
        except StoreWriteError as err:
            self.cannot_save = str(err)
            raise
        self.cannot_save = None
        return result

    def _connection_for_writing(self) -> sqlite3.Connection:
        """The connection to write with; a store that could not write at open tries a read-write open again."""
        if self.readonly or self._writable:
            return self._connection()
        self._connection()  # a closed store stays closed
        if self.refuse:
            raise StoreWriteError(self.refuse)  # a newer box's file: never written, not even tried
        db = file.reopen_writer(self.path, self._lock)
        self._wait_at_most(db)
        self._db.close()
        self._db, self._version, self._writable = db, SCHEMA_VERSION, True
        log.warning("the game file takes writes again: saving %d kept operation(s)", len(self._queue))
        return db

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the game store is closed")
        return self._db

    def _mark_damaged(self, game_id: int, problem: str) -> None:
        """Record the problem on the game row (best effort: reads never fail because a write did)."""
        if not self._writable:
            log.info("damaged game: %s", problem)
            return
        log.error("damaged game: %s (its rows are kept)", problem)
        try:
            self._connection().execute("UPDATE games SET problem = ? WHERE id = ?", (problem, game_id))
        except sqlite3.Error as err:
            log.warning("could not mark game %d damaged: %s", game_id, err)

    def _cursor(self, game_id: int) -> Cursor:
        """The cursor of an open, undamaged game (loading it if needed)."""
        cursor = self._cursors.get(game_id)
        if cursor is not None:
            return cursor
        game = self.game(game_id)
        if game.status == "damaged":
            raise StoreGameError(f"game {game_id} is damaged and takes no more events ({game.problem})")
        if game.status != "open":
            raise StoreGameError(f"game {game_id} is {game.status} and takes no more events")
        return self._cursors[game_id]


def _is_stop(payload) -> bool:
    """Whether a stored event's cell reads as a stop (the event itself, not a word found in its text)."""
    try:
        return isinstance(engine.event_from_json(jsontext.load(payload)), engine.Stop)
    except (jsontext.CellError, engine.CantStopError, TypeError, ValueError, KeyError):
        return False  # a damaged cell: the reads report it

