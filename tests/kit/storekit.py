"""Helpers for the store tests: legal games played from a seeded random source, failing connections and small file systems."""

from __future__ import annotations

import contextlib
import errno
import os
import random
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from engine import ALL_ROLLS, STOP, Event, GameState, Phase, Roll, Rules, apply, can_stop, new_game


def random_events(count: int, *, seed: int = 1, players=("Red", "Blue"), rules: Rules | None = None,
                  stop_chance: float = 0.4) -> tuple[list[Event], GameState]:
    """Up to ``count`` legal events of one game (fewer if it ends first) and the state after them."""
    rng = random.Random(seed)
    state = new_game(players, rules)
    events: list[Event] = []
    while len(events) < count and state.phase is not Phase.OVER:
        if state.phase is Phase.MOVE:
            event = rng.choice(state.moves)
        elif state.phase is Phase.DECIDE and can_stop(state) and rng.random() < stop_chance:
            event = STOP
        else:
            event = Roll(rng.choice(ALL_ROLLS))
        state = apply(state, event)
        events.append(event)
    return events, state


def play_to_end(*, seed: int = 1, players=("Red", "Blue")) -> tuple[list[Event], GameState]:
    """A whole game, to its winning stop."""
    events, state = random_events(100_000, seed=seed, players=players)
    assert state.phase is Phase.OVER
    return events, state


class CommitLandsThenFails:
    """Wraps a connection: its next COMMIT is written but reports an I/O error (fsync trouble)."""

    def __init__(self, db: sqlite3.Connection):
        self._real, self.armed = db, True

    def execute(self, sql, *args):
        cur = self._real.execute(sql, *args)
        if sql == "COMMIT" and self.armed:
            self.armed = False
            raise sqlite3.OperationalError("disk I/O error")
        return cur

    def __getattr__(self, name):
        return getattr(self._real, name)


@contextlib.contextmanager
def small_fs(size: str = "1m"):
    """A tmpfs of ``size`` mounted on a new directory (root only): skips the test if it cannot be mounted."""
    import pytest

    where = tempfile.mkdtemp(prefix="cantstop-fs-")
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", where],
                              capture_output=True, text=True)
    except OSError as err:
        done = subprocess.CompletedProcess([], 1, "", str(err))
    if done.returncode != 0:
        os.rmdir(where)
        pytest.skip(f"cannot mount a small file system here: {done.stderr.strip() or 'mount failed'}")
    try:
        yield Path(where)
    finally:
        subprocess.run(["umount", "-l", where], capture_output=True)
        os.rmdir(where)


def remount(where: Path, *, readonly: bool) -> None:
    """Remount a :func:`small_fs` read-only or read-write again, as a card would flip."""
    subprocess.run(["mount", "-o", "remount," + ("ro" if readonly else "rw"), str(where)], check=True)


def fill(where: Path) -> Path:
    """Fill the file system under ``where`` until it is full; returns the filler file (delete it for room)."""
    filler = where / "filler"
    with open(filler, "wb", buffering=0) as f:
        block = b"\0" * 4096
        try:
            while True:
                f.write(block)
        except OSError as err:
            assert err.errno == errno.ENOSPC, err
    return filler


def refuse_connections(monkeypatch, error: str, code: int, *, unless=lambda target: False):
    """Make every new connection to the game file fail with SQLite ``error``/``code`` (as a bad card would).

    ``unless(target)`` lets some through (e.g. an ``immutable`` open on a read-only card). Returns a
    function that lets every connection through again (the card is back).
    """
    from firmware.store import file

    real = file.sqlite_connect
    state = {"on": True}

    def connect(target, *, uri=False):
        if state["on"] and not unless(target):
            err = sqlite3.OperationalError(error)
            err.sqlite_errorcode = code
            raise err
        return real(target, uri=uri)

    monkeypatch.setattr(file, "sqlite_connect", connect)
    return lambda: state.update(on=False)


#: What version 5 added (the finished games' count and its triggers): taken out, a file is as version 4 left it.
AS_VERSION_4 = ("DROP TRIGGER finished_count_insert; DROP TRIGGER finished_count_update;"
                " DROP TRIGGER finished_count_delete; DROP TABLE finished_count; PRAGMA user_version = 4;")


def as_version_4(path: Path) -> None:
    """Make the store file at ``path`` the file a version-4 box would have left (its games kept)."""
    db = sqlite3.connect(path)
    db.executescript(AS_VERSION_4)
    db.close()


#: Two named seats, as a game's meta keeps them.
ANN_AND_BOB = {"seats": [{"colour": "Red", "bot": None, "name": "Ann"}, {"colour": "Blue", "bot": None, "name": "Bob"}]}


def finished_and_open(state_dir, clock) -> int:
    """Game 1 finished by Ann and Bob (3 s a move), game 2 open with 9 events; the finished game's event count."""
    from firmware.store import Store

    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")  # setup only
        won, _ = play_to_end(seed=21)
        first = store.new_game(["Red", "Blue"], Rules(), meta=ANN_AND_BOB)
        for event in won:
            clock.advance(3)
            store.append(first.id, event)
        second = store.new_game(["Red", "Blue"], Rules(), meta=ANN_AND_BOB)
        for event in random_events(9, seed=4)[0]:
            store.append(second.id, event)
    return len(won)
