"""The pending-write queue: writes that failed, kept in order in memory and saved by the next write that works.

Each write is a small frozen value that knows how to run itself against the
connection (:meth:`execute`) and how to show itself in reads before it is on
disk (:meth:`on_game_row`, :meth:`on_event_rows`, :meth:`fact`). The queue
saves its writes and any new ones in one transaction: all of them land, or all
stay pending.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import StoreWriteError, write_message

log = logging.getLogger("cantstop.store")

EventRow = tuple[int, str, float]  # (seq, payload, time)


class Write:
    """One change to the file. ``game_id`` is None for a write that touches no game."""

    game_id: int | None  # every kind sets it (None: the write touches no game)
    closes_game: ClassVar[bool] = False

    def execute(self, db: sqlite3.Connection) -> None:  # pragma: no cover - every kind overrides it
        raise NotImplementedError

    def on_game_row(self, row: dict) -> None:
        """Show this write in a game row read from the file (a dict of its columns)."""

    def on_event_rows(self, rows: list[EventRow]) -> list[EventRow]:
        """Show this write in the game's event rows read from the file."""
        return rows


@dataclass(frozen=True)
class SaveGame(Write):
    """A new game's row. Its id is chosen as it starts, so the writes after it can name it while it waits."""

    game_id: int
    players: str  # JSON text, as stored
    rules: str
    meta: str
    started: float

    def execute(self, db: sqlite3.Connection) -> None:
        # A commit that reported failure may still have landed: the same game is then not added twice.
        row = db.execute("SELECT started FROM games WHERE id = ?", (self.game_id,)).fetchone()
        if row is None:
            db.execute("INSERT INTO games (id, players, rules, meta, started, status) VALUES (?, ?, ?, ?, ?, 'open')",
                       (self.game_id, self.players, self.rules, self.meta, self.started))
        elif row[0] != self.started:
            raise sqlite3.IntegrityError(f"game {self.game_id} already holds a different game")

    def new_row(self) -> dict:
        """The game row as a read would find it once saved."""
        return {"id": self.game_id, "players": self.players, "rules": self.rules, "meta": self.meta,
                "started": self.started, "finished": None, "winner": None, "status": "open", "problem": None,
                "turns": None, "elapsed": None, "clock_jumped": 0}


@dataclass(frozen=True)
class SaveEvent(Write):
    game_id: int
    seq: int
    payload: str
    time: float
    elapsed: float | None = None  # seconds of play since the game's start (None: not known, an older game)
    clock_jumped: bool = False  # the wall clock jumped since the game's previous event

    def execute(self, db: sqlite3.Connection) -> None:
        # A commit that reported failure may still have landed: the same row is then not added twice.
        row = db.execute("SELECT payload FROM events WHERE game_id = ? AND seq = ?",
                         (self.game_id, self.seq)).fetchone()
        if row is None:
            db.execute("INSERT INTO events (game_id, seq, payload, time, elapsed) VALUES (?, ?, ?, ?, ?)",
                       (self.game_id, self.seq, self.payload, self.time, self.elapsed))
        elif row[0] != self.payload:
            raise sqlite3.IntegrityError(f"game {self.game_id}, event {self.seq} already holds a different event")
        if self.clock_jumped:
            db.execute("UPDATE games SET clock_jumped = 1 WHERE id = ?", (self.game_id,))

    def on_game_row(self, row: dict) -> None:
        if self.elapsed is not None and (row.get("elapsed") is None or row["elapsed"] < self.elapsed):
            row["elapsed"] = self.elapsed
        if self.clock_jumped:
            row["clock_jumped"] = 1

    def on_event_rows(self, rows: list[EventRow]) -> list[EventRow]:
        return [*rows, (self.seq, self.payload, self.time)]


@dataclass(frozen=True)
class DeleteEvent(Write):
    """Undo: remove the game's event ``seq`` (a no-op if it never landed)."""

    game_id: int
    seq: int

    def execute(self, db: sqlite3.Connection) -> None:
        db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (self.game_id, self.seq))

    def on_event_rows(self, rows: list[EventRow]) -> list[EventRow]:
        return [r for r in rows if r[0] != self.seq]


@dataclass(frozen=True)
class MarkFinished(Write):
    game_id: int
    time: float
    winner: int | None
    turns: int
    closes_game: ClassVar[bool] = True

    def execute(self, db: sqlite3.Connection) -> None:
        db.execute("UPDATE games SET status = 'finished', finished = ?, winner = ?, turns = ? WHERE id = ?",
                   (self.time, self.winner, self.turns, self.game_id))

    def on_game_row(self, row: dict) -> None:
        row.update(status="finished", finished=self.time, winner=self.winner, turns=self.turns)


@dataclass(frozen=True)
class MarkAbandoned(Write):
    game_id: int
    time: float
    turns: int | None
    closes_game: ClassVar[bool] = True

    def execute(self, db: sqlite3.Connection) -> None:
        db.execute("UPDATE games SET status = 'abandoned', finished = ?, turns = ? WHERE id = ? AND status = 'open'",
                   (self.time, self.turns, self.game_id))

    def on_game_row(self, row: dict) -> None:
        if row["status"] == "open":
            row.update(status="abandoned", finished=self.time, turns=self.turns)


@dataclass(frozen=True)
class MarkReopened(Write):
    """An abandoned game becomes the open game again (continued from the menu)."""

    game_id: int

    def execute(self, db: sqlite3.Connection) -> None:
        db.execute("UPDATE games SET status = 'open', finished = NULL WHERE id = ? AND status = 'abandoned'",
                   (self.game_id,))

    def on_game_row(self, row: dict) -> None:
        if row["status"] == "abandoned":
            row.update(status="open", finished=None)


@dataclass(frozen=True)
class SaveFact(Write):
    """Set a small UI fact (``value`` is JSON text), or remove it (``value`` None)."""

    key: str
    value: str | None
    time: float
    game_id: ClassVar[None] = None

    def execute(self, db: sqlite3.Connection) -> None:
        if self.value is None:
            db.execute("DELETE FROM facts WHERE key = ?", (self.key,))
        else:
            db.execute("INSERT OR REPLACE INTO facts (key, value, time) VALUES (?, ?, ?)",
                       (self.key, self.value, self.time))


class Queue:
    """The writes not yet on disk, oldest first."""

    def __init__(self) -> None:
        self._writes: list[Write] = []

    def __len__(self) -> int:
        return len(self._writes)

    def __iter__(self):
        return iter(self._writes)

    def keep(self, writes: list[Write]) -> None:
        """Add writes without trying to save them (a store that only reads)."""
        self._writes += writes

    def save(self, db: sqlite3.Connection, writes: list[Write], then: Callable[[sqlite3.Connection], Any] | None = None,
             *, keep: bool = True):
        """Save the pending writes, then ``writes``, then ``then(db)``, in one transaction.

        Returns what ``then`` returned. On failure raises StoreWriteError; the
        pending writes stay, and so do ``writes`` when ``keep`` (else they are
        dropped: the caller did not happen).
        """
        todo = self._writes + list(writes)
        try:
            db.execute("BEGIN IMMEDIATE")
            for write in todo:
                write.execute(db)
            result = then(db) if then is not None else None
            db.execute("COMMIT")
        except sqlite3.Error as err:
            rollback(db)
            raise self.failed(err, writes if keep else []) from None
        if self._writes:
            log.info("saved %d operation(s) that had been kept after a failed write", len(self._writes))
        self._writes = []
        return result

    def failed(self, err: BaseException, writes: list[Write]) -> StoreWriteError:
        """Keep ``writes`` pending after ``err``; the one-line error to raise."""
        self._writes += writes
        message = err.args[0] if isinstance(err, StoreWriteError) else write_message(err)
        log.warning("%s (%s); %d operation(s) kept to save later", message, err, len(self._writes))
        return StoreWriteError(message)

    def drop_event(self, game_id: int, seq: int) -> SaveEvent | None:
        """Undo an event still pending: take it out and queue its delete (in case a failed commit did land it)."""
        for i in range(len(self._writes) - 1, -1, -1):
            write = self._writes[i]
            if isinstance(write, SaveEvent) and write.game_id == game_id:
                if write.seq != seq:
                    return None
                del self._writes[i]
                self._writes.append(DeleteEvent(game_id, seq))
                return write
        return None

    def new_rows(self) -> list[dict]:
        """The rows of games started while saving failed, newest first."""
        return [w.new_row() for w in reversed(self._writes) if isinstance(w, SaveGame)]

    def newest_game(self) -> int:
        """The highest game id a pending write starts (0 for none)."""
        return max((w.game_id for w in self._writes if isinstance(w, SaveGame)), default=0)

    def touched_games(self, *, closing: bool = False) -> set[int]:
        """Games that pending writes change (only those they finish or abandon, with ``closing``)."""
        return {w.game_id for w in self._writes if w.game_id is not None and (w.closes_game or not closing)}

    def on_game_rows(self, rows: list[dict]) -> None:
        by_id = {r["id"]: r for r in rows}
        for write in self._writes:
            row = by_id.get(write.game_id)
            if row is not None:
                write.on_game_row(row)

    def on_event_rows(self, game_id: int, rows: list[EventRow]) -> list[EventRow]:
        for write in self._writes:
            if write.game_id == game_id:
                rows = write.on_event_rows(rows)
        return rows

    def fact(self, key: str) -> tuple[bool, str | None]:
        """(True, JSON text or None) if a pending write sets ``key``, else (False, None)."""
        for write in reversed(self._writes):
            if isinstance(write, SaveFact) and write.key == key:
                return True, write.value
        return False, None

    def facts(self, prefix: str) -> dict[str, str | None]:
        """The keys starting with ``prefix`` that pending writes set: key -> JSON text, or None (removed)."""
        return {w.key: w.value for w in self._writes if isinstance(w, SaveFact) and w.key.startswith(prefix)}


def rollback(db: sqlite3.Connection) -> None:
    """Undo a failed transaction, if one is open; a rollback that fails too changes nothing more."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
