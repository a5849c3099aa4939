"""The authoritative game store: every game and every event, in SQLite.

One file, ``games.sqlite3``, in the state directory, in WAL mode with
``synchronous=FULL``: :meth:`Store.append` returns only once the event is
committed and synced, so what the players see is always already durable.

Two tables (schema version in ``PRAGMA user_version``)::

    games(id, players, rules, meta, started, finished, winner, status, problem)
    events(game_id, seq, payload, time)      -- one row per event, seq from 1

Bad stored data never stops the box and is never silently dropped:

- a file that will not open as a database, fails ``PRAGMA integrity_check``
  or has a schema this code does not know is moved aside as
  ``games.sqlite3.corrupt-YYYYmmdd-HHMMSS`` (with its ``-wal``/``-shm``); the
  store starts clean and :attr:`Store.notice` says so in one line;
- an event row that does not parse or does not replay marks its game
  *damaged* with a reason like ``game 12, event 57: ...``; the rows stay, the
  valid prefix replays, and the game can still be exported.

A failed write (full disk, read-only file system, I/O error) raises
:class:`StoreWriteError` with one line, and the operation is kept in memory as
*pending*: every later write first flushes the pending operations, in order,
in the same transaction, so once the disk has room again nothing is lost or
duplicated. Reads show pending operations as if they were saved.
"""

from __future__ import annotations

import json
import logging
import os
import pathlib
import sqlite3
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from engine import CantStopError, Event, GameState, IllegalEventError, Move, Phase, Record, RecordError, Roll, Rules, Stop

log = logging.getLogger("cantstop.store")

DB_NAME = "games.sqlite3"
SCHEMA_VERSION = 2
APP_DIR = "cantstop-box"

_SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    players  TEXT NOT NULL,               -- JSON list of names, turn order
    rules    TEXT NOT NULL,               -- JSON, the record's rules object
    meta     TEXT NOT NULL DEFAULT '{}',  -- JSON, free-form for the UI (colours, bots)
    started  REAL NOT NULL,               -- seconds since the epoch
    finished REAL,                        -- when finished or abandoned
    winner   INTEGER,                     -- index into players
    status   TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'abandoned')),
    problem  TEXT,                        -- set when an event does not replay: the game is damaged
    turns    INTEGER                      -- turns played, kept when the game closes (history without replay)
);
CREATE INDEX games_status ON games (status);
CREATE TABLE events (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL,            -- 1, 2, 3 ... within the game
    payload  TEXT NOT NULL,               -- the record's JSON for the event
    time     REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""
_TABLES = {"games", "events"}
# Statements that bring a file of version N up to N + 1, run in one transaction.
_MIGRATIONS = {
    1: "ALTER TABLE games ADD COLUMN turns INTEGER;",
}

# Primary SQLite result codes we tell apart.
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 11, 13, 14
_SQLITE_NOTADB = 26


class StoreError(Exception):
    """Base of the store's errors; ``str()`` is one line for the screen or the terminal."""


class StoreWriteError(StoreError):
    """Saving failed (full disk, read-only file system, I/O error).

    The operation is kept as pending and saved by the next write that works;
    the game in memory stays playable.
    """


class StoreGameError(StoreError, ValueError):
    """The caller named a game that does not exist or cannot take this change."""


class StoreMissingError(StoreError):
    """A read-only open found no store in the state directory."""


@dataclass(frozen=True)
class StoredGame:
    """One game as stored: players, rules, meta, its events and how it ended.

    ``status`` is ``"open"``, ``"finished"``, ``"abandoned"`` or ``"damaged"``;
    a damaged game has ``problem`` (``"game 12, event 57: ..."``) and
    ``events`` holds only the prefix that replays.
    """

    id: int
    players: tuple[str, ...]
    rules: Rules
    meta: dict
    events: tuple[Event, ...]
    started: float
    finished: float | None
    winner: int | None
    status: str
    problem: str | None = None
    times: tuple[float, ...] = field(default=(), repr=False)
    """When each event of ``events`` was saved (same length)."""
    damaged_rows: tuple[tuple[int, str], ...] = field(default=(), repr=False)
    """For a damaged game, the stored rows from the bad one on: (seq, payload text)."""

    def record(self) -> Record:
        """The game record of CONTRACT.md (for a damaged game: the prefix that replays)."""
        return Record(self.players, self.rules, self.events)

    def replay(self) -> GameState:
        """The state after the events."""
        return engine.replay(engine.new_game(self.players, self.rules), self.events)


@dataclass(frozen=True)
class GameSummary:
    """One line of history: who played, how long, who won."""

    id: int
    players: tuple[str, ...]
    rules: Rules
    meta: dict
    started: float
    finished: float | None
    winner: int | None
    turns: int
    """Turns played or under way, every player's counted (0 before the first roll)."""
    status: str
    problem: str | None
    events: int
    last_event: float | None

    @property
    def ended(self) -> float:
        """When play last happened: the finish of a won game, else the last event (or the start)."""
        if self.status == "finished" and self.finished is not None:
            return self.finished
        return self.last_event if self.last_event is not None else self.started

    @property
    def duration(self) -> float:
        """Seconds from the start to :attr:`ended` (never negative)."""
        return max(0.0, self.ended - self.started)


def default_state_dir() -> pathlib.Path:
    """Where the games live: ``$STATE_DIRECTORY`` under systemd, else the user's data directory."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return pathlib.Path(state.split(":")[0])
    xdg = os.environ.get("XDG_DATA_HOME")
    base = pathlib.Path(xdg) if xdg and os.path.isabs(xdg) else pathlib.Path.home() / ".local" / "share"
    return base / APP_DIR


def _write_message(err: BaseException) -> str:
    """One line saying why a write failed, for the screen."""
    if isinstance(err, OSError) and not isinstance(err, sqlite3.Error):
        import errno

        if err.errno == errno.ENOSPC:
            return "cannot save: the SD card is full"
        if err.errno == errno.EROFS:
            return "cannot save: the SD card is read-only"
        if err.errno in (errno.EACCES, errno.EPERM):
            return f"cannot save: no permission to write {err.filename or 'the game file'}"
        return f"cannot save: {err.strerror or err}"
    code = _code(err)
    if code == _SQLITE_FULL:
        return "cannot save: the SD card is full"
    if code == _SQLITE_READONLY:
        return "cannot save: the SD card is read-only"
    if code == _SQLITE_IOERR:
        return "cannot save: the SD card failed to write (I/O error)"
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return "cannot save: the game file is busy"
    if code == _SQLITE_CANTOPEN:
        return "cannot save: cannot open the game file"
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return "cannot save: the game file is damaged"
    return f"cannot save: {str(err).splitlines()[0] if str(err) else type(err).__name__}"


def _code(err: BaseException) -> int | None:
    """The primary SQLite result code of ``err``, from the code or, failing that, the message."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(err).lower()
    for needle, value in (("disk is full", _SQLITE_FULL), ("readonly", _SQLITE_READONLY),
                          ("i/o error", _SQLITE_IOERR), ("malformed", _SQLITE_CORRUPT),
                          ("not a database", _SQLITE_NOTADB), ("locked", _SQLITE_BUSY)):
        if needle in text:
            return value
    return None


def _is_corruption(err: BaseException) -> bool:
    return _code(err) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


class _BadFile(Exception):
    """The database file cannot be used: it is moved aside (internal)."""


def _dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


# A pending operation: ("event", game_id, seq, payload, time) | ("pop", game_id, seq) |
# ("finish", game_id, time, winner, turns) | ("abandon", game_id, time, turns)
_Op = tuple


class Store:
    """The games on disk. Open with :meth:`Store.open`; use from one thread at a time."""

    notice: str | None
    """A one-line message for the screen when the store had to start clean, else None."""

    def __init__(self, db: sqlite3.Connection, path: pathlib.Path, clock, notice: str | None = None,
                 readonly: bool = False):
        self._db = db
        self.readonly = readonly
        self.path = path
        self._clock = clock
        self.notice = notice
        self._pending: list[_Op] = []
        # game id -> states after 0, 1, 2 ... events (for checking appends and undo).
        self._trail: dict[int, list[GameState]] = {}
        self._version = SCHEMA_VERSION  # a read-only store may read an older file

    # -- opening -----------------------------------------------------------

    @classmethod
    def open(cls, state_dir: pathlib.Path | str, *, clock=time.time, readonly: bool = False) -> "Store":
        """Open (creating if needed) the store in ``state_dir``.

        A database that will not open, fails its integrity check or has an
        unknown schema is moved aside with a timestamp and the store starts
        clean, with :attr:`notice` set. Raises :class:`StoreWriteError` when
        the directory or file cannot be created or written.

        ``readonly=True`` (for the command line, beside a running box) creates
        and moves nothing: a missing store raises :class:`StoreMissingError`,
        a bad one :class:`StoreError`, and every write fails.
        """
        state_dir = pathlib.Path(state_dir)
        if readonly:
            path = state_dir / DB_NAME
            if not path.is_file():
                raise StoreMissingError(f"no saved games in {state_dir}")
            try:
                db = cls._connect(path, readonly=True)
            except _BadFile as bad:
                raise StoreError(f"the game file {path} is unusable ({bad}); the box moves it aside when it starts")
            store = cls(db, path, clock, None, readonly=True)
            store._version = db.execute("PRAGMA user_version").fetchone()[0]
            return store
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise StoreError(f"cannot use {state_dir}: it is not a directory") from None
        except OSError as err:
            raise StoreWriteError(_write_message(err)) from None
        path = state_dir / DB_NAME
        notice = None
        try:
            db = cls._connect(path)
        except _BadFile as bad:
            aside = _move_aside(path, clock)
            log.error("game store %s was unusable (%s); moved it to %s and started clean", path, bad, aside.name)
            notice = "Saved games were unreadable: kept aside, starting clean"
            try:
                db = cls._connect(path)
            except _BadFile as again:  # pragma: no cover - a fresh file failing is a disk fault
                raise StoreWriteError(f"cannot save: a new game file fails too ({again})") from None
        return cls(db, path, clock, notice)

    @classmethod
    def _connect(cls, path: pathlib.Path, readonly: bool = False) -> sqlite3.Connection:
        """A ready connection; raises _BadFile for a file to move aside, StoreWriteError for a write fault.

        An existing file is first checked through a read-only connection, so a
        bad file is moved aside exactly as found: a read-write connection would
        checkpoint or delete its ``-wal`` when it closes.
        """
        version = 0
        if path.exists():
            _check_header(path)
            probe = None
            try:
                probe = sqlite3.connect(_ro_uri(path), uri=True, isolation_level=None, check_same_thread=False)
                version = cls._check(probe)
                if readonly:
                    if version == 0:
                        raise _BadFile("it holds no games yet")
                    db, probe = probe, None
                    return db
            except sqlite3.DatabaseError as err:
                if _is_corruption(err):
                    raise _BadFile(_one_line(err)) from None
                raise StoreWriteError(_write_message(err)) from None
            finally:
                if probe is not None:
                    probe.close()
        elif readonly:  # pragma: no cover - Store.open checks first
            raise StoreMissingError(f"no saved games in {path.parent}")
        db = None
        try:
            db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=5000")
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":  # pragma: no cover - only on file systems without shared memory
                log.warning("journal_mode is %s, not wal", mode)
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if version == 0:
                # One transaction: a power cut leaves either no tables or all of them.
                db.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
            elif version < SCHEMA_VERSION:
                steps = "".join(_MIGRATIONS[v] for v in range(version, SCHEMA_VERSION))
                db.executescript(f"BEGIN IMMEDIATE; {steps} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
                log.info("game store schema updated from version %d to %d", version, SCHEMA_VERSION)
            return db
        except sqlite3.DatabaseError as err:
            if db is not None:
                db.close()
            if _is_corruption(err):
                raise _BadFile(_one_line(err)) from None
            raise StoreWriteError(_write_message(err)) from None

    @staticmethod
    def _check(db: sqlite3.Connection) -> int:
        """The schema version of a usable file; raises _BadFile (or sqlite3.DatabaseError) for a bad one."""
        db.execute("PRAGMA busy_timeout=5000")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
        tables.discard("sqlite_sequence")
        if version > SCHEMA_VERSION:
            raise _BadFile(f"schema version {version} is newer than this program's {SCHEMA_VERSION}")
        if version == 0 and tables:
            raise _BadFile(f"unknown tables {', '.join(sorted(tables))} and no schema version")
        if version > 0 and not _TABLES <= tables:
            raise _BadFile(f"schema version {version} but tables {', '.join(sorted(_TABLES - tables))} missing")
        problems = [r[0] for r in db.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise _BadFile("integrity check failed: " + "; ".join(str(p) for p in problems)[:200])
        return version

    def close(self) -> None:
        """Try once more to save pending operations, then close (pending ones left are logged)."""
        if self._db is None:
            return
        if self._pending:
            try:
                self._write([])
            except StoreWriteError as err:
                log.error("closing with %d unsaved operations: %s", len(self._pending), err)
        try:
            self._db.close()
        finally:
            self._db = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def pending(self) -> int:
        """How many operations wait to be saved (0 when everything is on disk)."""
        return len(self._pending)

    # -- writing -------------------------------------------------------------

    def _write(self, ops: list[_Op]) -> None:
        """Save pending operations then ``ops`` in one transaction; on failure keep all as pending."""
        todo = self._pending + ops
        db = self._connection()
        try:
            db.execute("BEGIN IMMEDIATE")
            for op in todo:
                self._execute(db, op)
            db.execute("COMMIT")
        except sqlite3.Error as err:
            _rollback(db)
            self._pending = todo
            message = _write_message(err)
            log.warning("%s (%s); %d operation(s) kept to save later", message, err, len(todo))
            raise StoreWriteError(message) from None
        if self._pending:
            log.info("saved %d operation(s) that had been kept after a failed write", len(self._pending))
        self._pending = []

    @staticmethod
    def _execute(db: sqlite3.Connection, op: _Op) -> None:
        kind = op[0]
        if kind == "event":
            _, game_id, seq, payload, when = op
            # A commit that reported failure may still have landed: the same row is then not added twice.
            row = db.execute("SELECT payload FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
            if row is None:
                db.execute("INSERT INTO events (game_id, seq, payload, time) VALUES (?, ?, ?, ?)",
                           (game_id, seq, payload, when))
            elif row[0] != payload:
                raise sqlite3.IntegrityError(f"game {game_id}, event {seq} already holds a different event")
        elif kind == "finish":
            _, game_id, when, winner, turns = op
            db.execute("UPDATE games SET status = 'finished', finished = ?, winner = ?, turns = ? WHERE id = ?",
                       (when, winner, turns, game_id))
        elif kind == "abandon":
            _, game_id, when, turns = op
            db.execute("UPDATE games SET status = 'abandoned', finished = ?, turns = ? WHERE id = ? AND status = 'open'",
                       (when, turns, game_id))
        elif kind == "pop":
            _, game_id, seq = op
            db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, seq))
        else:  # pragma: no cover
            raise AssertionError(kind)

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the game store is closed")
        return self._db

    def new_game(self, players: Sequence[str], rules: Rules | None = None, *, meta: dict | None = None) -> StoredGame:
        """Start a game (an open game left behind is marked abandoned and kept in history).

        Raises :class:`StoreWriteError` if it cannot be saved (then no game
        was created, but earlier pending operations stay pending).
        """
        rules = Rules() if rules is None else rules
        state = engine.new_game(players, rules)  # checks players and rules
        meta = {} if meta is None else meta
        try:
            meta_text = _dump(meta)
        except (TypeError, ValueError) as err:
            raise StoreGameError(f"meta must be JSON data: {err}") from None
        if not isinstance(meta, dict):
            raise StoreGameError("meta must be a JSON object (a dict)")
        now = self._clock()
        db = self._connection()
        todo = list(self._pending)
        try:
            db.execute("BEGIN IMMEDIATE")
            for op in todo:
                self._execute(db, op)
            left = [r[0] for r in db.execute("SELECT id FROM games WHERE status = 'open'")]
            for game_id in left:
                self._execute(db, ("abandon", game_id, now, self._turns_known(game_id)))
            cur = db.execute("INSERT INTO games (players, rules, meta, started, status) VALUES (?, ?, ?, ?, 'open')",
                             (_dump(list(state.players)), _dump(rules.to_json()), meta_text, now))
            game_id = cur.lastrowid
            db.execute("COMMIT")
        except sqlite3.Error as err:
            _rollback(db)
            message = _write_message(err)
            log.warning("new game not saved: %s (%s)", message, err)
            raise StoreWriteError(message) from None
        self._pending = []
        for old in left:
            self._trail.pop(old, None)
            log.info("game %d left open: marked abandoned", old)
        self._trail[game_id] = [state]
        return StoredGame(game_id, state.players, rules, json.loads(meta_text), (), now, None, None, "open")

    def append(self, game_id: int, event: Event) -> None:
        """Save one event of an open game; returns only once it is committed and synced.

        The event must be legal after the game's events (an illegal one raises
        :class:`engine.IllegalEventError`, numbered, and nothing is saved).
        Raises :class:`StoreWriteError` when saving fails: the event is then
        kept as pending and saved first by the next write that works.
        """
        trail = self._open_trail(game_id)
        seq = len(trail)  # trail[0] is the start, so the new event is number len(trail)
        try:
            state = engine.apply(trail[-1], event)
        except IllegalEventError as err:
            raise err.at(seq) from None
        trail.append(state)
        # On failure _write keeps the event as pending and raises StoreWriteError.
        self._write([("event", game_id, seq, _dump(event.to_json()), self._clock())])

    def pop_last(self, game_id: int) -> Event:
        """Undo: remove the last event of an open game if it is a move or a stop.

        Raises :class:`StoreGameError` if the game has no events or the last
        one is a roll (the dice once drawn stay drawn). An event still pending
        is dropped without writing; a saved one is deleted
        (:class:`StoreWriteError` if that fails: the undo holds in the store
        and is saved by the next write that works).
        """
        trail = self._open_trail(game_id)
        if len(trail) == 1:
            raise StoreGameError(f"game {game_id} has no event to undo")
        seq = len(trail) - 1
        for i in range(len(self._pending) - 1, -1, -1):
            op = self._pending[i]
            if op[0] == "event" and op[1] == game_id:
                if op[2] == seq:
                    event = engine.event_from_json(json.loads(op[3]))
                    _check_undoable(game_id, event)
                    # Dropped from memory at once; a delete follows it in the queue in case a commit
                    # that reported failure did land the row (deleting a row that is not there is harmless).
                    del self._pending[i]
                    self._pending.append(("pop", game_id, seq))
                    trail.pop()
                    return event
                break
        row = self._connection().execute("SELECT payload FROM events WHERE game_id = ? AND seq = ?",
                                         (game_id, seq)).fetchone()
        if row is None:  # pragma: no cover - the trail and the table agree by construction
            raise StoreError(f"game {game_id}, event {seq} is missing")
        event = engine.event_from_json(json.loads(row[0]))
        _check_undoable(game_id, event)
        trail.pop()
        self._write([("pop", game_id, seq)])
        return event

    def finish(self, game_id: int, winner: int | None) -> None:
        """Mark an open game finished now with its winner (an index into players, or None)."""
        game = self._row(game_id)
        if game["status"] != "open" or game["problem"]:
            state = "damaged" if game["problem"] else game["status"]
            raise StoreGameError(f"game {game_id} is {state} and cannot be finished")
        players = json.loads(game["players"])
        if winner is not None and not (type(winner) is int and 0 <= winner < len(players)):
            raise StoreGameError(f"winner must be a player number 0 to {len(players) - 1}, not {winner!r}")
        turns = _turns_played(self._open_trail(game_id)[-1])
        self._trail.pop(game_id, None)
        self._write([("finish", game_id, self._clock(), winner, turns)])

    def abandon(self, game_id: int) -> None:
        """Mark an open game abandoned (it stays in history)."""
        self._row(game_id)
        turns = self._turns_known(game_id)
        self._trail.pop(game_id, None)
        self._write([("abandon", game_id, self._clock(), turns)])

    def _turns_known(self, game_id: int) -> int | None:
        """Turns played in a game whose states are in memory, else None (history replays it when asked)."""
        trail = self._trail.get(game_id)
        return _turns_played(trail[-1]) if trail else None

    # -- reading -------------------------------------------------------------

    def open_game(self) -> StoredGame | None:
        """The newest game not finished nor abandoned, or None.

        A damaged one comes back with status ``"damaged"``, its ``problem``
        and the events that replay; the daemon shows the problem and starts a
        new game (which abandons it; it stays in history and can be exported).
        """
        rows = self._rows(status="open", limit=1)
        if not rows:
            return None
        return self._load(rows[0])[0]

    def game(self, game_id: int) -> StoredGame:
        """One game by id; raises :class:`StoreGameError` naming an unknown id."""
        return self._load(self._row(game_id))[0]

    def record(self, game_id: int) -> Record:
        """The game record of CONTRACT.md (a damaged game gives the prefix that replays)."""
        return self.game(game_id).record()

    def games(self, limit: int | None = None, *, check: bool = False) -> list[GameSummary]:
        """Games newest first: players, turns, winner, duration, status.

        Open games are replayed; a closed game uses the turns kept when it
        closed, so the list stays quick with a long history. ``check=True``
        replays every game, so damage anywhere shows as status ``"damaged"``
        (the ``history`` command does this).
        """
        rows = self._rows(limit=limit)
        touched = {op[1] for op in self._pending}
        quick = [r for r in rows if not check and r["status"] != "open" and r["turns"] is not None
                 and r["id"] not in touched]
        counts: dict[int, tuple[int, float]] = {}
        if quick:
            marks = ",".join("?" * len(quick))
            counts = {gid: (n, last) for gid, n, last in self._connection().execute(
                f"SELECT game_id, COUNT(*), MAX(time) FROM events WHERE game_id IN ({marks}) GROUP BY game_id",
                [r["id"] for r in quick])}
        quick_ids = {r["id"] for r in quick}
        out = []
        for row in rows:
            if row["id"] in quick_ids:
                try:
                    players = tuple(_parse_players(row["players"]))
                    rules = Rules.from_json(json.loads(row["rules"]))
                    meta = json.loads(row["meta"])
                except (ValueError, TypeError, CantStopError):
                    pass  # unreadable: the slow path below marks it damaged
                else:
                    n, last = counts.get(row["id"], (0, None))
                    status = "damaged" if row["problem"] else row["status"]
                    out.append(GameSummary(row["id"], players, rules, meta if isinstance(meta, dict) else {},
                                           row["started"], row["finished"], row["winner"], row["turns"], status,
                                           row["problem"], n, last))
                    continue
            game, state = self._load(row)
            out.append(GameSummary(game.id, game.players, game.rules, game.meta, game.started, game.finished,
                                   game.winner, _turns_played(state), game.status, game.problem, len(game.events),
                                   game.times[-1] if game.times else None))
        return out

    def wins_by_colour(self) -> dict[str, int]:
        """Wins per colour over finished games: ``meta["colours"][winner]``, else the winner's name."""
        wins: dict[str, int] = {}
        for row in self._rows(status="finished"):
            winner = row["winner"]
            if winner is None:
                continue
            try:
                players = json.loads(row["players"])
                meta = json.loads(row["meta"])
            except ValueError:
                continue
            colours = meta.get("colours") if isinstance(meta, dict) else None
            if isinstance(colours, list) and 0 <= winner < len(colours) and isinstance(colours[winner], str):
                colour = colours[winner]
            elif isinstance(players, list) and 0 <= winner < len(players):
                colour = str(players[winner])
            else:
                continue
            wins[colour] = wins.get(colour, 0) + 1
        return dict(sorted(wins.items(), key=lambda kv: (-kv[1], kv[0])))

    # -- internals -----------------------------------------------------------

    _COLUMNS = "id, players, rules, meta, started, finished, winner, status, problem"

    def _rows(self, *, status: str | None = None, game_id: int | None = None,
              limit: int | None = None) -> list[dict]:
        """Game rows as dicts, newest first, with pending finish/abandon operations applied."""
        touched = sorted({op[1] for op in self._pending if op[0] in ("finish", "abandon")})
        where, params = [], []
        if game_id is not None:
            where.append("id = ?")
            params.append(game_id)
        if status is not None:
            # A pending finish/abandon may change a row's status: fetch those rows too, filter below.
            where.append("(status = ?" + "".join(" OR id = ?" for _ in touched) + ")")
            params += [status, *touched]
        turns = "turns" if self._version >= 2 else "NULL AS turns"
        sql = f"SELECT {self._COLUMNS}, {turns} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, int(limit)) + len(touched))
        cur = self._connection().execute(sql, params)
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, r)) for r in cur]
        if touched:
            by_id = {r["id"]: r for r in rows}
            for op in self._pending:
                row = by_id.get(op[1])
                if row is None:
                    continue
                if op[0] == "finish":
                    row.update(status="finished", finished=op[2], winner=op[3], turns=op[4])
                elif op[0] == "abandon" and row["status"] == "open":
                    row.update(status="abandoned", finished=op[2], turns=op[3])
            if status is not None:
                rows = [r for r in rows if r["status"] == status]
        if limit is not None:
            rows = rows[: max(0, int(limit))]
        return rows

    def _row(self, game_id) -> dict:
        if type(game_id) is not int:
            raise StoreGameError(f"a game id is a whole number, not {game_id!r}")
        rows = self._rows(game_id=game_id)
        if not rows:
            raise StoreGameError(f"there is no game {game_id}")
        return rows[0]

    def _event_rows(self, game_id: int) -> list[tuple[int, str, float]]:
        """The game's event rows (seq, payload, time) in order, pending appends and undos applied."""
        rows = self._connection().execute(
            "SELECT seq, payload, time FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        for op in self._pending:
            if op[1] != game_id:
                continue
            if op[0] == "event":
                rows.append((op[2], op[3], op[4]))
            elif op[0] == "pop":
                rows = [r for r in rows if r[0] != op[2]]
        return rows

    def _load(self, row: dict) -> tuple[StoredGame, GameState | None]:
        """Parse and replay one game; a problem marks it damaged (rows kept, never dropped).

        Returns the game and the state after its (valid) events.
        """
        game_id = row["id"]
        problem = row["problem"]
        players: tuple[str, ...] = ()
        rules = Rules()
        events: list[Event] = []
        times: list[float] = []
        damaged_rows: list[tuple[int, str]] = []
        rows = self._event_rows(game_id)
        found = None
        try:
            players = tuple(_parse_players(row["players"]))
            rules = Rules.from_json(json.loads(row["rules"]))
            state = engine.new_game(players, rules)
        except (ValueError, TypeError, CantStopError) as err:
            found = f"game {game_id}: players or rules unreadable: {_one_line(err)}"
            state = None
            damaged_rows = [(s, str(p)) for s, p, _ in rows]
        try:
            meta = json.loads(row["meta"])
        except (ValueError, TypeError):
            meta = None
        meta = meta if isinstance(meta, dict) else {}
        trail = [state]
        if state is not None:
            for i, (seq, payload, when) in enumerate(rows, 1):
                try:
                    if seq != i:
                        raise _RowError(f"missing (the next stored event is number {seq})")
                    try:
                        obj = json.loads(payload)
                    except (ValueError, TypeError):
                        raise _RowError("not valid JSON") from None
                    event = engine.event_from_json(obj)
                    state = engine.apply(state, event)
                except (_RowError, RecordError, IllegalEventError) as err:
                    message = err.message if isinstance(err, IllegalEventError) else _one_line(err)
                    found = f"game {game_id}, event {i}: {message}"
                    damaged_rows = [(s, str(p)) for s, p, _ in rows[i - 1:]]
                    break
                events.append(event)
                times.append(when)
                trail.append(state)
        if found and not problem:
            problem = found
            self._mark_damaged(game_id, problem)
        status = row["status"]
        if problem:
            status = "damaged"
            self._trail.pop(game_id, None)
        elif status == "open":
            self._trail[game_id] = trail
        game = StoredGame(game_id, players, rules, meta, tuple(events), row["started"], row["finished"],
                          row["winner"], status, problem, tuple(times), tuple(damaged_rows))
        return game, state

    def _mark_damaged(self, game_id: int, problem: str) -> None:
        """Record the problem on the game row (best effort: reads never fail because a write did)."""
        if self.readonly:
            log.info("damaged game: %s", problem)
            return
        log.error("damaged game: %s (its rows are kept)", problem)
        try:
            self._connection().execute("UPDATE games SET problem = ? WHERE id = ?", (problem, game_id))
        except sqlite3.Error as err:
            log.warning("could not mark game %d damaged: %s", game_id, err)

    def _open_trail(self, game_id: int) -> list[GameState]:
        """The states of an open, undamaged game (loading it if needed)."""
        trail = self._trail.get(game_id)
        if trail is not None:
            return trail
        game = self.game(game_id)
        if game.status == "damaged":
            raise StoreGameError(f"game {game_id} is damaged and takes no more events ({game.problem})")
        if game.status != "open":
            raise StoreGameError(f"game {game_id} is {game.status} and takes no more events")
        return self._trail[game_id]


def _turns_played(state: GameState | None) -> int:
    """Turns begun: the engine's turn number, less the next turn if it has not been rolled yet."""
    if state is None:
        return 0
    return state.turn - (1 if state.phase is Phase.ROLL else 0)


class _RowError(Exception):
    pass


def _check_undoable(game_id: int, event: Event) -> None:
    if isinstance(event, Roll):
        raise StoreGameError("cannot undo a roll: the dice once drawn stay drawn")
    if not isinstance(event, (Move, Stop)):  # pragma: no cover
        raise StoreGameError(f"game {game_id}: cannot undo {event}")


def _parse_players(text: str) -> list[str]:
    players = json.loads(text)
    if not isinstance(players, list):
        raise ValueError("players must be a list")
    return players


def _one_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0]


_MAGIC = b"SQLite format 3\0"


def _check_header(path: pathlib.Path) -> None:
    """A non-empty file must start with SQLite's header: SQLite itself takes a zeroed page 1 for an empty database."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(_MAGIC))
    except OSError as err:
        raise StoreWriteError(f"cannot read the game file: {err.strerror or err}") from None
    if head and head != _MAGIC:
        raise _BadFile("not an SQLite database (wrong header)")


def _ro_uri(path: pathlib.Path) -> str:
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"


def _move_aside(path: pathlib.Path, clock) -> pathlib.Path:
    """Rename the database (and its -wal/-shm) to ``<name>.corrupt-YYYYmmdd-HHMMSS``; return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(clock()))
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        for suffix in ("", "-wal", "-shm", "-journal"):
            src = path.with_name(path.name + suffix)
            if src.exists():
                os.replace(src, aside.with_name(aside.name + suffix))
    except OSError as err:
        raise StoreWriteError(f"cannot move the damaged game file aside: {err.strerror or err}") from None
    _fsync_dir(path.parent)
    return aside


def _rollback(db: sqlite3.Connection) -> None:
    """Undo a failed transaction, if one is open; a rollback that fails too changes nothing more."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _fsync_dir(directory: pathlib.Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
