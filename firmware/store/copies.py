"""Copies of the games: a consistent backup of a live file, and games brought back into a store.

:func:`backup` copies the game file with SQLite's online backup API from a
read-only connection that holds one snapshot for the whole copy, in steps
with a pause between them: the box's writes are never blocked (the file is
in WAL mode: a reader takes no lock a writer waits for) and the card's
bandwidth is shared with them. The copy is checked page by page before it is
given its name.

:class:`Importer` adds closed games to a store that this process holds the
lock of, many games per transaction, refusing a game already there. What
makes two games *the same* (:func:`same_key`): the same players in the same
order, the same rules and the same events, and the same start to the second
when the incoming game says when it started.
"""

from __future__ import annotations

import json
import os
import pathlib
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import engine
from engine import CantStopError, Event, IllegalEventError, Rules

from . import file
from .errors import StoreError, one_line
from .games import turns_played
from .jsontext import dump as _dump
from .sidefiles import side_name


# -- backup -------------------------------------------------------------------

#: Pages copied per step (1 MB at 4 KB a page), and the pause after each.
STEP_PAGES, STEP_PAUSE = 256, 0.002


def backup(state_dir: pathlib.Path, target: pathlib.Path, *, pages: int = STEP_PAGES,
           pause: float = STEP_PAUSE) -> tuple[int, int]:
    """Copy the store in ``state_dir`` to ``target`` (a new file); (games, bytes) copied.

    Raises StoreError (one line) when there is nothing to copy, the target
    (or its ``.partial``) exists, names a file SQLite keeps beside the store,
    or cannot be written, or the copy fails its check. Nothing is left at
    ``target`` unless the copy is whole, and only the ``.partial`` this call
    made is ever removed.
    """
    taken_for = side_name(state_dir, target)
    if taken_for is not None:
        raise StoreError(f"{target} would be taken for {taken_for}: SQLite and the box keep files of that name "
                         "beside the store; give the backup another name or folder")
    source, _ = file.open_reader(state_dir / file.DB_NAME)  # StoreMissingError / StoreError
    partial = target.with_name(target.name + ".partial")
    made = False  # whether the .partial is this call's (only then is it removed)
    dest = None
    try:
        if os.path.lexists(target):
            raise StoreError(f"{target} exists already: give the backup a new name")
        source.execute("BEGIN")  # one snapshot for every step: the copy is of one moment
        games = source.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        try:
            os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644))
        except FileExistsError:
            raise StoreError(f"{partial} exists already (a backup cut short, or somebody's file): move it away, "
                             "or give the backup a new name") from None
        except OSError as err:
            raise StoreError(f"cannot write {target}: {_why(err)}") from None
        made = True
        try:
            dest = sqlite3.connect(partial, isolation_level=None)
            _copy_pages(source, dest, pages, pause)
            dest.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
            problems = [r[0] for r in dest.execute("PRAGMA integrity_check(5)")]
        except sqlite3.Error as err:
            raise StoreError(f"cannot write {target}: {one_line(err)}") from None
        if problems != ["ok"]:
            raise StoreError(f"the copy fails its check ({'; '.join(map(str, problems))[:120]}): "
                             "the game file itself may be damaged")
        dest.close()
        dest = None
        _fsync(partial)
        os.replace(partial, target)
        made = False  # it is the backup now
        file._fsync_dir(target.parent)
        return games, target.stat().st_size
    except OSError as err:
        raise StoreError(f"cannot write {target}: {_why(err)}") from None
    finally:
        if dest is not None:
            dest.close()
        source.close()
        if made:
            partial.unlink(missing_ok=True)


def _copy_pages(source: sqlite3.Connection, dest: sqlite3.Connection, pages: int, pause: float) -> None:
    """SQLite's online backup, ``pages`` at a step with ``pause`` seconds between steps."""
    source.backup(dest, pages=pages, sleep=pause)


def _why(err: BaseException) -> str:
    return getattr(err, "strerror", None) or one_line(err)


def _fsync(path: pathlib.Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- games coming in ------------------------------------------------------------

class Refused(Exception):
    """An incoming game that is not added: why, in one line."""


@dataclass(frozen=True)
class Incoming:
    """A closed game to add: who played, when, what happened and how it ended."""

    players: tuple[str, ...]
    rules: Rules
    meta: dict
    events: tuple[Event, ...]
    started: float
    finished: float | None
    status: str  # "finished" or "abandoned"
    winner: int | None
    times: tuple[float, ...]  # when each event was saved
    turns: int = 0  # turns begun, as the store keeps them for history
    started_known: bool = True  # False when the record did not say (the file's time stands in)


def checked(players, rules: Rules, meta, events, *, started: float, finished: float | None, status: str | None,
            winner, times: tuple[float, ...] | None = None, started_known: bool = True) -> Incoming:
    """An :class:`Incoming` game whose events replay; :class:`Refused` (one line) when they do not.

    A game whose events end in a win is finished with that winner (a winner
    or status stated otherwise is refused); a game said to be finished without a
    winning event keeps the stated winner (a player, or none), as the box's
    finish does; any other game is added as abandoned (it can be continued).
    """
    try:
        state = engine.new_game(list(players), rules)
    except CantStopError as err:
        raise Refused(one_line(err)) from None
    for i, event in enumerate(events, 1):
        try:
            state = engine.apply(state, event)
        except IllegalEventError as err:
            raise Refused(str(err.at(i))) from None
    if state.is_over:
        if status not in (None, "finished"):
            raise Refused(f"its events end in a win (player {state.winner}), but it says it was {status}")
        if winner is not None and winner != state.winner:
            raise Refused(f"its events make player {state.winner} the winner, but it says winner {winner!r:.20}")
        status, winner = "finished", state.winner
    elif status == "finished":
        if winner is not None and not (type(winner) is int and 0 <= winner < len(players)):
            raise Refused(f"winner {winner!r:.20} is not a player")
    else:
        status, winner = "abandoned", None
    if times is None or len(times) != len(events):
        end = finished if finished is not None and finished >= started else started
        n = max(1, len(events))
        times = tuple(started + (end - started) * i / n for i in range(1, len(events) + 1))
    return Incoming(tuple(players), rules, meta if isinstance(meta, dict) else {}, tuple(events), started,
                    finished if status == "finished" else (finished or (times[-1] if times else started)),
                    status, winner, tuple(times), turns_played(state), started_known)


def same_key(players, rules: Rules, count: int) -> tuple[str, str, int]:
    """What two games must share before their events are compared."""
    return _dump(list(players)), _dump(rules.to_json()), count


class Importer:
    """Adds closed games to a writing store, refusing duplicates; ``tally_of(game)`` gives the fact to keep per game."""

    def __init__(self, store, tally_of: Callable[[Incoming], dict | None] | None = None, *, batch: int = 200):
        self._store = store
        self._tally_of = tally_of
        self._batch = batch
        self._waiting: list[tuple[Incoming, tuple[str, ...]]] = []  # each game with its events' text
        db = store._connection()
        counts = dict(db.execute("SELECT game_id, COUNT(*) FROM events GROUP BY game_id"))
        self._known: dict[tuple, list[tuple[int | None, float, tuple[str, ...] | None]]] = {}
        for game_id, players, rules, started in db.execute("SELECT id, players, rules, started FROM games"):
            try:
                key = same_key(json.loads(players), Rules.from_json(json.loads(rules)), counts.get(game_id, 0))
            except (ValueError, TypeError, CantStopError):
                continue  # a damaged row is no game to compare with
            self._known.setdefault(key, []).append((game_id, started, None))
        self.added = 0

    def offer(self, game: Incoming) -> None:
        """Queue ``game`` to be added (saved by :meth:`flush`, or when a batch is full); :class:`Refused` if known."""
        payloads = tuple(_dump(e.to_json()) for e in game.events)
        key = same_key(game.players, game.rules, len(payloads))
        for i, (game_id, started, known) in enumerate(self._known.get(key, [])):
            if game.started_known and int(started) != int(game.started):
                continue
            if known is None:
                known = tuple(r[0] for r in self._store._connection().execute(
                    "SELECT payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)))
                self._known[key][i] = (game_id, started, known)
            if known == payloads:
                where = f"game {game_id}" if game_id is not None else "an earlier one in this import"
                raise Refused(f"already in the store (the same players, rules, start and events as {where})")
        self._known.setdefault(key, []).append((None, game.started, payloads))
        self._waiting.append((game, payloads))
        if len(self._waiting) >= self._batch:
            self.flush()

    def flush(self) -> None:
        """Save the queued games in one transaction (StoreWriteError if it fails: none of them is saved)."""
        games, self._waiting = self._waiting, []
        if not games:
            return
        tallies = [self._tally_of(g) if self._tally_of else None for g, _ in games]

        def insert(db: sqlite3.Connection) -> None:
            for (game, payloads), tally in zip(games, tallies):
                cur = db.execute(
                    "INSERT INTO games (players, rules, meta, started, finished, winner, status, turns) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (_dump(list(game.players)), _dump(game.rules.to_json()), _dump(game.meta), game.started,
                     game.finished, game.winner, game.status, game.turns))
                game_id = cur.lastrowid
                db.executemany("INSERT INTO events (game_id, seq, payload, time) VALUES (?, ?, ?, ?)",
                               [(game_id, seq, payload, when)
                                for seq, (payload, when) in enumerate(zip(payloads, game.times), 1)])
                if tally is not None:
                    db.execute("INSERT OR REPLACE INTO facts (key, value, time) VALUES (?, ?, ?)",
                               (f"tally:{game_id}", _dump(tally), time.time()))

        self._store._save([], insert, keep=False)
        self.added += len(games)


def backup_games(path: pathlib.Path) -> Iterator[tuple[str, Incoming | Refused]]:
    """The closed games of a backup file (a store file of any version this box reads), oldest first.

    Each as (a label for messages, the game or why it is refused); an open
    game comes as abandoned. StoreError when the file is not a store.
    """
    from .store import Store  # the reading half of a store over the backup's own file

    db, version = file.open_reader(path, box_file=False)
    store = Store(db, path, time.time, readonly=True, version=version)
    try:
        ids = [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]
        for game_id in ids:
            label = f"{path.name}, game {game_id}"
            game = store.game(game_id)
            if game.problem:
                yield label, Refused(f"damaged ({game.problem})")
                continue
            status = "abandoned" if game.status == "open" else game.status
            try:
                yield label, checked(game.players, game.rules, game.meta, game.events, started=game.started,
                                     finished=game.finished, status=status, winner=game.winner, times=game.times)
            except Refused as why:
                yield label, why
    finally:
        store.close()


def backup_fact(path: pathlib.Path, key: str):
    """One fact of a backup file (None if it has none, or is no store)."""
    from .store import Store

    try:
        db, version = file.open_reader(path, box_file=False)
    except StoreError:
        return None
    store = Store(db, path, time.time, readonly=True, version=version)
    try:
        return store.fact(key)
    finally:
        store.close()


def is_store_file(path: pathlib.Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == file._MAGIC
    except OSError:
        return False


def record_files(folder: pathlib.Path) -> Iterable[pathlib.Path]:
    """The game records of a folder: its ``*.json`` files, by name (not the state views, ``*.view.json``)."""
    return sorted(p for p in folder.iterdir()
                  if p.suffix == ".json" and not p.name.endswith(".view.json") and p.is_file())


