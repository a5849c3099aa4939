"""A fact any process may change beside a running box: one short read-modify-write transaction.

The writer's lock (``games.lock``, :mod:`.file`) keeps game writes to the
box alone. A small shared fact, such as the roster, is changed by another
process (``cantstop-box players``) straight in the file: ``BEGIN IMMEDIATE``,
read the fact, write the new value, ``COMMIT``, in milliseconds, waiting at
most :data:`WAIT_MS` for the box's own transaction to end. The box notices
the commit through ``PRAGMA data_version`` (:meth:`Store.data_version`) and
reads the fact again.

With no box running, the store is first opened as the box would open it
(created, brought up to date or moved aside if damaged), then closed, and
the same transaction is made.
"""

from __future__ import annotations

import pathlib
import sqlite3
import time
from collections.abc import Callable

from . import file, jsontext, schema
from .errors import (SQLITE_BUSY, SQLITE_LOCKED, StoreError, StoreLockedError, StoreWriteError, one_line, sqlite_code,
                     write_message)
from .pending import rollback

#: The longest a shared write waits for the box's own transaction (they last milliseconds).
WAIT_MS = 2000


LIMIT = jsontext.FACT_CHARS
_VALUE = jsontext.sized("value", LIMIT)  # a value too big to be a fact is never fetched


class StoreBusyError(StoreError):
    """The file stayed locked longer than :data:`WAIT_MS` (another program holds it): try again."""


def update_fact(state_dir: pathlib.Path | str, key: str, change: Callable, *, clock=time.time):
    """Set fact ``key`` to ``change(its value now)`` (None when unset), atomically; returns the new value.

    Works whether or not a box runs on ``state_dir``. ``change`` may raise to
    refuse (nothing is written). Raises :class:`StoreError` (one line) when the
    file cannot be changed: :class:`StoreBusyError` while another program
    holds it locked.
    """
    from .store import Store

    state_dir = pathlib.Path(state_dir)
    _refuse_newer(state_dir / file.DB_NAME)
    try:
        Store.open(state_dir, clock=clock).close()  # no box: create or bring the file up to date
    except StoreLockedError:
        pass  # a box runs: its file is there and up to date
    path = state_dir / file.DB_NAME
    db = _connect(path)
    try:
        return _read_modify_write(db, key, change, clock())
    finally:
        db.close()


def _refuse_newer(path: pathlib.Path) -> None:
    """A file from a newer box: refused in one line before the store is opened to write (whose log would
    say so again, in other words), nothing written."""
    try:
        db, version = file.open_reader(path)
    except (StoreError, file.BadFile):
        return  # no file yet, or one that opening it as the box does makes, moves aside or refuses
    db.close()
    if version > schema.SCHEMA_VERSION:
        raise StoreError(f"{schema.NEWER} ({path} has schema {version}; this one knows {schema.SCHEMA_VERSION}):"
                         " nothing changed; update the box to change it")


def _connect(path: pathlib.Path) -> sqlite3.Connection:
    if not path.exists():
        raise StoreError(f"no game file in {path.parent}, and none could be made")
    if not path.is_file():
        raise StoreError(f"cannot use the game file {path}: it is not a file")
    try:
        file._check_header(path)
        file.set_aside_stray_journal(path)  # else this connection would play it back (and delete it)
        db = file.sqlite_connect(str(path))
    except (StoreWriteError, file.BadFile) as err:
        raise StoreError(f"cannot change {path}: {err}") from None
    except sqlite3.Error as err:
        raise StoreError(write_message(err)) from None
    try:
        db.execute(f"PRAGMA busy_timeout={WAIT_MS}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > schema.SCHEMA_VERSION:
            raise StoreError(schema.NEWER)  # never written: the newer box's file stays as it is
        if version != schema.SCHEMA_VERSION:
            raise StoreError(f"the game file has schema version {version} and this program writes "
                             f"{schema.SCHEMA_VERSION}: stop the box and start it once, then try again")
        db.execute("PRAGMA synchronous=FULL")
    except sqlite3.Error as err:
        db.close()
        raise _error(err) from None
    except BaseException:
        db.close()
        raise
    return db


def _error(err: sqlite3.Error) -> StoreError:
    if sqlite_code(err) in (SQLITE_BUSY, SQLITE_LOCKED):
        return StoreBusyError(f"the game file is busy (another program holds it: {one_line(err)}); try again")
    return StoreError(write_message(err))


def _read_modify_write(db: sqlite3.Connection, key: str, change: Callable, now: float):
    try:
        db.execute("BEGIN IMMEDIATE")
        row = db.execute(f"SELECT {_VALUE} FROM facts WHERE key = ?", (key,)).fetchone()
        try:
            value = jsontext.load(jsontext.fetched(row[0]), limit=LIMIT) if row else None
        except jsontext.CellError:
            value = None  # a damaged value (not JSON, nested too deep, too big): as if unset
        new = change(value)
        text = jsontext.dump(new)
        db.execute("INSERT OR REPLACE INTO facts (key, value, time) VALUES (?, ?, ?)", (key, text, now))
        db.execute("COMMIT")
    except sqlite3.Error as err:
        rollback(db)
        raise _error(err) from None
    except BaseException:
        rollback(db)
        raise
    return new
